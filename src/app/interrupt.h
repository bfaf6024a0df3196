// SPDX-License-Identifier: GPL-3.0-or-later
// Ctrl-C for the long-running data commands: the first SIGINT or SIGTERM sets a flag the work
// polls, so it can stop at a safe point; a second one ends the process at once.
#pragma once

#include <atomic>

namespace axon::app {

// Installs the handlers (once) and returns the flag they set.
const std::atomic<bool>& installInterruptFlag();

// The exit status of a command the flag stopped: 128 + SIGINT, as a shell reports a process that
// Ctrl-C ended, though the command kept or reported what it had finished.
inline constexpr int kInterruptedExitStatus = 130;

} // namespace axon::app
