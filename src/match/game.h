// SPDX-License-Identifier: GPL-3.0-or-later
// One game between two engines from an opening: moves checked by the chess core, the clock,
// the rules of the game, adjudication, and engine failures, ending in a result with its reason.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/pgn_game.h"
#include "match/engine.h"
#include "match/openings.h"
#include "match/time_control.h"

namespace axon::match {

// Ends games whose outcome is clear from both engines' scores. Zero counts turn a rule off.
struct Adjudication {
    // Resign: for `resignMoveCount` consecutive moves of each engine, the loser scores itself
    // at or below -resignScore and the winner at or above +resignScore.
    int resignMoveCount = 0;
    int resignScore = 1000;
    // Draw: from full move `drawMoveNumber` on, both engines score |score| <= drawScore for
    // `drawMoveCount` consecutive moves each.
    int drawMoveNumber = 40;
    int drawMoveCount = 0;
    int drawScore = 10;
};

enum class GameOutcome { WhiteWins, BlackWins, Draw, Unfinished };

struct GameMove {
    std::string uci;
    std::optional<int> scoreCp; // the mover's own view
    std::optional<int> scoreMate;
    int depth = 0;
    std::int64_t timeMs = 0;
};

struct GameRecord {
    Opening opening;
    std::vector<GameMove> moves; // after the opening's moves
    GameOutcome outcome = GameOutcome::Unfinished;
    std::string reason;      // "White mates", "Black loses on time", ...
    std::string termination; // PGN Termination tag: normal, adjudication, time forfeit, ...
};

struct GameSettings {
    TimeControl timeControl;
    // Per-colour overrides of timeControl (an engine's own limit), White first.
    std::optional<TimeControl> sideTimeControl[2];
    Adjudication adjudication;
    std::int64_t timeMarginMs = 100;
    // Under fixed limits (nodes, depth), how long a move may take before the engine is hung.
    std::int64_t fixedLimitTimeoutMs = 60000;

    const TimeControl& timeControlFor(chess::Color c) const {
        return sideTimeControl[c] ? *sideTimeControl[c] : timeControl;
    }
};

// Plays one game. `stop` (may be null) ends it early as Unfinished. Never throws for engine
// misbehaviour: crashes, hangs, time losses and illegal moves become results.
GameRecord playGame(Engine& white, Engine& black, const Opening& opening,
                    const GameSettings& settings, const std::atomic<bool>* stop = nullptr);

// "1-0", "0-1", "1/2-1/2" or "*".
const char* resultString(GameOutcome outcome);

// The game as a PGN record: tags (the caller adds Event, Site, Date, Round), the opening's
// moves commented "book", then the engines' moves commented "{eval/depth time}".
chess::PgnGame toPgnGame(const GameRecord& record, const std::string& whiteName,
                         const std::string& blackName, const GameSettings& settings);

} // namespace axon::match
