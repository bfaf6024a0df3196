// SPDX-License-Identifier: GPL-3.0-or-later
// The WebSocket JSON protocol of `axon serve` (docs/server.md): client messages parsed and
// validated into typed requests, and the server's replies formatted. Pure functions, so the
// unit tests exercise them without a network.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "chess/position.h"
#include "engine/engine.h"
#include "search/search.h"
#include "server/game.h"

namespace axon::server {

// Ordered: replies list "type" first, as written, which makes them easier to read.
using Json = nlohmann::ordered_json;

struct NewGameRequest {
    std::string fen; // empty: the start position
    bool chess960 = false;
};

struct PositionRequest {
    std::string fen;
    std::vector<std::string> moves; // UCI or SAN
    std::optional<std::string> pgn; // instead of fen + moves
    bool chess960 = false;
};

struct MoveRequest {
    std::string move;
};

struct UndoRequest {
    int plies = 1;
};

struct ClockLimits {
    std::int64_t wtime = 0, btime = 0, winc = 0, binc = 0;
    int movestogo = 0;
};

struct GoRequest {
    std::optional<std::int64_t> movetime;
    std::optional<std::uint64_t> nodes;
    std::optional<int> depth;
    std::optional<ClockLimits> clock;
    bool infinite = false;
    std::optional<int> multipv;
    std::optional<int> elo;
    std::optional<int> skill;
    bool play = false;
};

struct StopRequest {};

struct SetOptionRequest {
    std::string name;
    std::string value; // numbers and booleans arrive as their UCI text
};

struct StateRequest {};

// Each piece's contribution to the network's static evaluation (the analysis heat map).
struct EvalPiecesRequest {
    std::optional<std::string> fen; // absent: the session's current position
};

// The tablebases' result for a position and each of its moves (the analysis tablebase panel).
struct TablebaseRequest {
    std::optional<std::string> fen; // absent: the session's current position
};

using Request =
    std::variant<NewGameRequest, PositionRequest, MoveRequest, UndoRequest, GoRequest, StopRequest,
                 SetOptionRequest, StateRequest, EvalPiecesRequest, TablebaseRequest>;

struct ParsedMessage {
    // The client's "id" (any JSON value), echoed in every reply to this message; null if none.
    Json id;
    std::optional<Request> request;
    std::string error; // why there is no request
};

// Parses one client message. Malformed JSON, a missing or unknown "type", and fields of the
// wrong type or out of range give an error, with the id kept whenever it could be read.
ParsedMessage parseClientMessage(std::string_view text);

// Limits that bound a `go`, from the request and the server's cap on thinking time.
struct ClampedLimits {
    search::SearchLimits limits;
    std::int64_t maxTimeMs = 0; // the most the search may take: the session stops it then (0:
                                // no cap, an uncapped analysis)
    bool clamped = false;       // the request asked for more time (or for no bound at all)
};
// `uncappedAnalysis`: the session may analyse without a cap (a local client under
// --local-analysis unlimited): a search that does not play its move is then not clamped.
ClampedLimits clampGo(const GoRequest& go, std::int64_t maxThinkMs, bool uncappedAnalysis = false);

// --- Server messages (each a JSON text) --------------------------------------------------
std::string formatError(const Json& id, std::string_view message);
Json stateJson(const Game& game, bool searching);
std::string formatState(const Json& id, const Game& game, bool searching);
// `root` is the position searched: the PV is converted to SAN from there.
std::string formatInfo(const Json& id, const search::SearchInfo& info, const chess::Position& root,
                       bool chess960);
// The tablebase panel's answer for `pos` (`available`: the server has tables at all).
std::string formatTablebase(const Json& id, const chess::Position& pos,
                            const engine::TablebaseReport& report, bool available);
// `yielded`: an uncapped analysis was stopped because another search waited for its threads.
std::string formatBestMove(const Json& id, chess::Move best, chess::Move ponder,
                           const chess::Position& root, bool chess960, bool played,
                           bool yielded = false);
// A running search's periodic progress (live nodes, speed and current root move).
std::string formatProgress(const Json& id, const search::SearchProgress& progress,
                           const chess::Position& root, bool chess960);
std::string formatSearching(const Json& id, const ClampedLimits& limits);
std::string formatQueued(const Json& id, int position);
// The answer to evalPieces: `fen` is the position evaluated (written by the server).
std::string formatPieces(const Json& id, const std::string& fen,
                         const engine::PieceContributions& contributions);

// The SAN of each move of `pv` from `root`, stopping at the first that is not legal there.
std::vector<std::string> pvToSan(const chess::Position& root, const std::vector<chess::Move>& pv);

} // namespace axon::server
