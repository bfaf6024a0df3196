// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI front end: reads commands from stdin, writes responses to stdout.
#pragma once

namespace axon::uci {

// Runs until `quit` or end of input; returns the process exit status.
int runUciLoop();

} // namespace axon::uci
