// SPDX-License-Identifier: GPL-3.0-or-later
// The native UCI front end: reads commands from stdin, writes responses to stdout (the protocol
// itself is uci/session.h).
#pragma once

namespace axon::uci {

// Runs until `quit` or end of input; returns the process exit status.
int runUciLoop();

} // namespace axon::uci
