// SPDX-License-Identifier: GPL-3.0-or-later
// The CECP (xboard / WinBoard protocol 2) spoken to an engine process: the feature handshake,
// the engine's own board kept in step move by move, clocks, and its replies read back as moves.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "match/process_engine.h"

namespace axon::match {

struct XboardTimeouts {
    // Without any `feature done=` the protocol says to wait 2 s and assume a version 1 engine.
    std::chrono::milliseconds features{2000};
    // After `feature done=0` the engine asked for more time to start up.
    std::chrono::milliseconds featuresExtended{60000};
    std::chrono::milliseconds ready{10000}; // ping -> pong
    std::chrono::milliseconds stop{1000};   // "?" (move now) -> move after a timeout
};

// What `feature` lines announced; defaults are the protocol's for engines that say nothing.
struct XboardFeatures {
    bool ping = false;
    bool setboard = false;
    bool san = false;
    bool usermove = false;
    bool time = true;
    bool done = false; // a `done=1` was seen
    std::string myname;
    std::vector<std::string> variants;
};

// Parses one "feature a=1 b="x y" ..." line into `features`; returns the names it read, each to
// be answered with `accepted NAME`. `doneValue` receives done=0/1 when present.
std::vector<std::string> parseFeatureLine(const std::string& line, XboardFeatures& features,
                                          std::optional<int>& doneValue);

// Parses a thinking line "ply score time nodes pv..." (score in centipawns, mate as
// +-(100000 + moves)) into `result`; false when the line is not one.
bool parseThinkingLine(const std::string& line, SearchResult& result);

// The move in an engine's reply ("move e2e4", "My move is: e2e4", "12. ... e2e4"), or empty.
std::string moveInReply(const std::string& line);

// Reads a move in CECP coordinate notation (e2e4, e7e8q, e7e8=Q, e1g1 or e1h1 castling) or SAN
// (Nf3, O-O). Null when it is neither a legal move in `pos`.
std::optional<chess::Move> parseXboardMove(const chess::Position& pos, const std::string& text);

// A move as the engine expects it: SAN when it asked for it, else coordinates (O-O / O-O-O for
// Chess960 castling, as the protocol writes it there).
std::string formatXboardMove(const chess::Position& pos, chess::Move m, bool san);

class XboardEngine final : public ProcessEngine {
  public:
    explicit XboardEngine(EngineConfig config, XboardTimeouts timeouts = {});

    bool ensureStarted() override;
    bool newGame() override;
    SearchResult search(const SearchRequest& request) override;
    std::string cannotStartFrom(const std::string& fen) const override;
    void terminate() override;

  private:
    bool readFeatures();
    // ping/pong when the engine offers it; otherwise nothing can be waited for.
    bool waitReady(std::chrono::milliseconds timeout);
    // Brings the engine's board to the request's position: new game set-up when its board is
    // not a prefix of it, then the moves it has not seen. False with m_error set.
    bool syncBoard(const SearchRequest& request);
    bool sendTimeControl(const TimeControl& tc);
    bool sendMove(chess::Move m);

    XboardTimeouts m_timeouts;
    XboardFeatures m_features;
    int m_pingCounter = 0;

    // The engine's board: from m_startFen through m_moves (UCI text), and whether it is fresh
    // after `new` (set-up still to do).
    bool m_needsSetup = true;
    std::string m_startFen;
    std::vector<std::string> m_moves;
    chess::Position m_board;
};

} // namespace axon::match
