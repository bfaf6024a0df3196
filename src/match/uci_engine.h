// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI protocol spoken to an engine process: handshake, options, positions, searches.
#pragma once

#include <chrono>
#include <string>

#include "match/process_engine.h"

namespace axon::match {

// How long the protocol exchanges outside a search may take before the engine counts as hung.
struct UciTimeouts {
    std::chrono::milliseconds handshake{10000}; // uci -> uciok
    std::chrono::milliseconds ready{10000};     // isready -> readyok
    std::chrono::milliseconds stop{1000};       // stop -> bestmove after a timeout
};

class UciEngine final : public ProcessEngine {
  public:
    explicit UciEngine(EngineConfig config, UciTimeouts timeouts = {});

    bool ensureStarted() override;
    bool newGame() override;
    SearchResult search(const SearchRequest& request) override;

  private:
    // Reads until a line starting with `token` (as a whole word); false on timeout or exit.
    bool waitFor(const std::string& token, std::chrono::milliseconds timeout);

    UciTimeouts m_timeouts;
};

// Parses an "info ..." line into `result` (score and depth); other lines are ignored.
void parseInfoLine(const std::string& line, SearchResult& result);

} // namespace axon::match
