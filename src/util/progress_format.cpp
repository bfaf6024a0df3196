// SPDX-License-Identifier: GPL-3.0-or-later
// Formatting for the progress lines (progress_format.h).
#include "util/progress_format.h"

#include <cstdio>

namespace axon::util {

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

} // namespace axon::util
