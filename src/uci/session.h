// SPDX-License-Identifier: GPL-3.0-or-later
// One UCI session: parses command lines and drives the Engine facade, writing every response
// line to a sink. Knows nothing of where lines come from, so the stdin loop (uci.h) and the
// WebAssembly worker (src/wasm) share one protocol implementation.
#pragma once

#include <functional>
#include <sstream>
#include <string>

#include "engine/engine.h"

namespace axon::uci {

class Session {
  public:
    // Receives one output line (without newline); may contain embedded newlines for multi-line
    // answers (`uci`, `d`, `bench`). Called from the search thread too, so it must be
    // thread-safe when the engine searches in the background.
    using Sink = std::function<void(const std::string& line)>;

    explicit Session(Sink sink, engine::EngineLimits limits = {});

    // Handles one command line; returns false on `quit`.
    bool handle(const std::string& line);
    // End of input: let a bounded search finish and report, stop an unbounded one.
    void finish();
    bool searching() const { return m_engine.searching(); }

  private:
    // Commands that need the engine idle wait for a bounded search to finish, as piped
    // scripts expect; an infinite or pondering search would never end, so they are refused.
    bool waitUntilIdle(const char* command);
    void position(std::istringstream& in);
    void go(std::istringstream& in);
    void setoption(std::istringstream& in);
    void display();
    // OpenBench's opening request (engine/genfens.h): one `info string genfens FEN` per opening.
    void genfens(const std::string& arguments);
    void send(const std::string& line) const { m_sink(line); }
    void sendError(const std::string& message) const { send("info string error: " + message); }

    Sink m_sink;
    engine::Engine m_engine;
    bool m_unboundedSearch = false;
};

} // namespace axon::uci
