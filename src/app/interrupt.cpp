// SPDX-License-Identifier: GPL-3.0-or-later
// The interrupt flag of the data commands.
#include "app/interrupt.h"

#include <csignal>

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

} // namespace axon::app
