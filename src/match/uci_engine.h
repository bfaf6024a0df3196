// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI protocol spoken to an engine process: handshake, options, positions, searches.
#pragma once

#include <chrono>
#include <string>
#include <vector>

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
    // Writes every request's position and go at once, then reads the answers in order. A
    // timeout or exit ends the batch and terminates the process (answers still queued in it
    // cannot be told apart from the next batch's).
    std::vector<SearchResult> searchInOrder(const std::vector<SearchRequest>& requests) override;

  private:
    // Reads until a line starting with `token` (as a whole word); false on timeout or exit.
    bool waitFor(const std::string& token, std::chrono::milliseconds timeout);
    // Reads one search's output until its bestmove, `deadline` at the latest; on a timeout
    // asks for the move (stopOnTimeout) or leaves that to the caller.
    void readAnswer(const SearchRequest& request, Clock::time_point start, SearchResult& result,
                    bool stopOnTimeout);

    UciTimeouts m_timeouts;
};

// Parses an "info ..." line into `result` (score and depth); other lines are ignored.
void parseInfoLine(const std::string& line, SearchResult& result);

} // namespace axon::match
