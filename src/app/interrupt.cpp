// SPDX-License-Identifier: GPL-3.0-or-later
// The interrupt flag of the data commands and their duration format.
#include "app/interrupt.h"

#include <csignal>
#include <cstdio>

namespace axon::app {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int signal) {
    g_interrupted.store(true);
    std::signal(signal, SIG_DFL); // a second Ctrl-C is not ignored
}

} // namespace

const std::atomic<bool>& installInterruptFlag() {
    static const bool installed = [] {
        std::signal(SIGINT, onInterrupt);
        std::signal(SIGTERM, onInterrupt);
        return true;
    }();
    (void)installed;
    return g_interrupted;
}

std::string formatDuration(double seconds) {
    if (!(seconds >= 0) || seconds > 1e9) return "?";
    const auto s = static_cast<long long>(seconds + 0.5);
    char buffer[48];
    if (s >= 3600)
        std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        std::snprintf(buffer, sizeof buffer, "%lldm%02llds", s / 60, s % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%llds", s);
    return buffer;
}

} // namespace axon::app
