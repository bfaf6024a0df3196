// SPDX-License-Identifier: GPL-3.0-or-later
// The arithmetic of the long-running commands' progress lines (datagen, label, convert, the
// trainer): a rate and a short duration for the ETA.
#pragma once

#include <string>

namespace axon::util {

// count / seconds, 0 before any time has passed.
inline double ratePerSecond(double count, double seconds) {
    return seconds > 0 ? count / seconds : 0;
}

// "2h05m", "3m07s", "12s"; "?" for a negative or absurd value (an ETA not yet known).
std::string formatDuration(double seconds);

} // namespace axon::util
