// SPDX-License-Identifier: GPL-3.0-or-later
// The protocol-neutral engine interface a game drives (UCI or CECP/xboard), with the engine's
// configuration and what one search request and answer carry.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/time_control.h"

namespace axon::match {

enum class Protocol { Uci, Xboard };

struct EngineConfig {
    Protocol protocol = Protocol::Uci;
    std::string name;    // empty: the engine's own "id name", else the command
    std::string command; // a shell command line
    std::string workingDir;
    // Options sent once after the handshake, in the order given.
    std::vector<std::pair<std::string, std::string>> options;
    // This engine's own limit, overriding the match's (e.g. depth 1 against depth 5).
    std::optional<TimeControl> timeControl;
    // Games start from Chess960 positions: UCI_Chess960 / `variant fischerandom` is set.
    bool chess960 = false;
};

// What the engine is asked to search. Exactly one kind of limit is used: the clock fields when
// `useClock`, otherwise whichever of nodes / depth / moveTimeMs is set.
struct SearchRequest {
    std::string startFen;
    std::vector<std::string> moves; // UCI long algebraic, from startFen
    bool useClock = false;
    std::int64_t whiteMs = 0, blackMs = 0, whiteIncMs = 0, blackIncMs = 0;
    int movesToGo = 0; // 0: sudden death
    std::int64_t nodes = 0;
    int depth = 0;
    std::int64_t moveTimeMs = 0;
    // The mover's whole time control, for protocols that set it once per game (CECP `level`).
    TimeControl timeControl;
    // How long to wait for the answer before declaring the engine hung.
    std::chrono::milliseconds deadline{60000};
};

enum class SearchStatus { Ok, Timeout, Crashed };

struct SearchResult {
    SearchStatus status = SearchStatus::Crashed;
    std::string bestMove; // as the engine wrote it
    // The last score the engine reported, from its own point of view.
    std::optional<int> scoreCp;
    std::optional<int> scoreMate; // signed moves to mate
    int depth = 0;
    std::chrono::milliseconds elapsed{0};
    // The engine resigned instead of moving (CECP `resign`): it loses.
    bool resigned = false;
    std::string error;
};

class Engine {
  public:
    virtual ~Engine() = default;
    // Starts the process when it is not running and does the handshake; false with error().
    virtual bool ensureStarted() = 0;
    // Tells the engine that a new game begins and waits until it is ready.
    virtual bool newGame() = 0;
    virtual SearchResult search(const SearchRequest& request) = 0;
    // Searches each request in order and answers them in order; the answers stop after the
    // first that is not Ok (the requests after it are not answered). An engine that can take
    // the next requests while it searches (UCI: position and go queue behind the running
    // search) gets them all at once, which saves a round trip per search: the teacher of
    // `axon label` at depth 1 spends more time waiting for its next position than searching.
    virtual std::vector<SearchResult> searchInOrder(const std::vector<SearchRequest>& requests) {
        std::vector<SearchResult> results;
        for (const SearchRequest& request : requests) {
            results.push_back(search(request));
            if (results.back().status != SearchStatus::Ok) break;
        }
        return results;
    }
    // Why this (started) engine cannot play a game from `fen`, or empty when it can.
    virtual std::string cannotStartFrom(const std::string& fen) const {
        (void)fen;
        return {};
    }
    // Kills the process; the next ensureStarted() starts a fresh one. Used after hangs.
    virtual void terminate() = 0;
    virtual const std::string& name() const = 0;
    virtual const std::string& error() const = 0;
};

} // namespace axon::match
