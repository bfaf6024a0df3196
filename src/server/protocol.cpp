// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing and validation of client messages, and formatting of server messages, as JSON.
#include "server/protocol.h"

#include <algorithm>
#include <limits>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/uci_move.h"
#include "search/score.h"

namespace axon::server {

using namespace chess;

namespace {

// Reads optional fields of one message; the first problem is kept in `error`.
class FieldReader {
  public:
    explicit FieldReader(const Json& object) : m_object(object) {}

    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool has(const char* name) const {
        return m_object.contains(name) && !m_object[name].is_null();
    }

    std::optional<std::string> string(const char* name) {
        if (!has(name)) return std::nullopt;
        const Json& v = m_object[name];
        if (!v.is_string()) return fail(name, "a string"), std::nullopt;
        return v.get<std::string>();
    }
    std::optional<bool> boolean(const char* name) {
        if (!has(name)) return std::nullopt;
        const Json& v = m_object[name];
        if (!v.is_boolean()) return fail(name, "true or false"), std::nullopt;
        return v.get<bool>();
    }
    // An integer in [min, max]; 1.0 counts as 1, 1.5 does not.
    std::optional<std::int64_t> integer(const char* name, std::int64_t min, std::int64_t max) {
        if (!has(name)) return std::nullopt;
        return integerOf(m_object[name], name, min, max);
    }
    std::optional<std::int64_t> integerOf(const Json& v, const std::string& name, std::int64_t min,
                                          std::int64_t max) {
        std::int64_t value = 0;
        if (v.is_number_integer()) {
            if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(max))
                return failRange(name, min, max), std::nullopt;
            value = v.get<std::int64_t>();
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (!(d >= double(min) && d <= double(max)) || d != double(std::int64_t(d)))
                return failRange(name, min, max), std::nullopt;
            value = std::int64_t(d);
        } else {
            return fail(name, "a number"), std::nullopt;
        }
        if (value < min || value > max) return failRange(name, min, max), std::nullopt;
        return value;
    }
    std::vector<std::string> stringList(const char* name) {
        std::vector<std::string> out;
        if (!has(name)) return out;
        const Json& v = m_object[name];
        if (!v.is_array()) return fail(name, "an array of strings"), out;
        for (const Json& item : v) {
            if (!item.is_string())
                return fail(name, "an array of strings"), std::vector<std::string>{};
            out.push_back(item.get<std::string>());
        }
        return out;
    }
    const Json* object(const char* name) {
        if (!has(name)) return nullptr;
        const Json& v = m_object[name];
        if (!v.is_object()) return fail(name, "an object"), nullptr;
        return &v;
    }
    void fail(const std::string& name, const char* expected) {
        if (m_error.empty()) m_error = "'" + name + "' must be " + expected;
    }
    void failMessage(std::string message) {
        if (m_error.empty()) m_error = std::move(message);
    }

  private:
    void failRange(const std::string& name, std::int64_t min, std::int64_t max) {
        if (m_error.empty())
            m_error = "'" + name + "' must be an integer from " + std::to_string(min) + " to " +
                      std::to_string(max);
    }

    const Json& m_object;
    std::string m_error;
};

constexpr std::int64_t kMaxTimeMs = std::int64_t(1) << 40;

GoRequest readGo(FieldReader& in) {
    GoRequest go;
    if (auto v = in.integer("movetime", 1, kMaxTimeMs)) go.movetime = *v;
    if (auto v = in.integer("nodes", 1, std::int64_t(1) << 50)) go.nodes = std::uint64_t(*v);
    if (auto v = in.integer("depth", 1, kMaxPly - 1)) go.depth = int(*v);
    if (const Json* clock = in.object("clock")) {
        ClockLimits c;
        // A GUI may send a clock already below zero: the mover is out of time.
        auto read = [&](const char* name, std::int64_t min) -> std::int64_t {
            if (!clock->contains(name) || (*clock)[name].is_null()) return 0;
            return in.integerOf((*clock)[name], std::string("clock.") + name, min, kMaxTimeMs)
                .value_or(0);
        };
        c.wtime = read("wtime", -kMaxTimeMs);
        c.btime = read("btime", -kMaxTimeMs);
        c.winc = read("winc", 0);
        c.binc = read("binc", 0);
        c.movestogo = int(std::min<std::int64_t>(read("movestogo", 0), 10000));
        if (!clock->contains("wtime") && !clock->contains("btime"))
            in.failMessage("'clock' needs wtime and btime");
        go.clock = c;
    }
    go.infinite = in.boolean("infinite").value_or(false);
    if (auto v = in.integer("multipv", 1, 256)) go.multipv = int(*v);
    if (auto v = in.integer("elo", 0, 5000)) go.elo = int(*v);
    if (auto v = in.integer("skill", 0, 100)) go.skill = int(*v);
    go.play = in.boolean("play").value_or(false);
    const int bounds = go.movetime.has_value() + go.clock.has_value() + int(go.infinite);
    if (bounds > 1) in.failMessage("go: give at most one of movetime, clock and infinite");
    if (go.infinite && go.play) in.failMessage("go: an infinite search cannot play its move");
    return go;
}

// Text from clients is valid UTF-8 (it was parsed), but error messages may quote a part of it:
// replace rather than throw on a cut character.
std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json idOrNull(const Json& message) {
    if (message.is_object() && message.contains("id")) return message["id"];
    return nullptr;
}

} // namespace

ParsedMessage parseClientMessage(std::string_view text) {
    ParsedMessage out;
    Json message = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) {
        out.error = "malformed JSON";
        return out;
    }
    if (!message.is_object()) {
        out.error = "a message must be a JSON object";
        return out;
    }
    out.id = idOrNull(message);
    if (!message.contains("type") || !message["type"].is_string()) {
        out.error = "a message needs a string 'type'";
        return out;
    }
    const std::string type = message["type"].get<std::string>();
    FieldReader in(message);
    Request request;
    if (type == "newGame") {
        NewGameRequest r;
        r.fen = in.string("fen").value_or("");
        r.chess960 = in.boolean("chess960").value_or(false);
        request = r;
    } else if (type == "position") {
        PositionRequest r;
        r.fen = in.string("fen").value_or("");
        r.moves = in.stringList("moves");
        r.pgn = in.string("pgn");
        r.chess960 = in.boolean("chess960").value_or(false);
        if (r.pgn && (in.has("fen") || in.has("moves")))
            in.failMessage("position: give either pgn or fen/moves, not both");
        request = r;
    } else if (type == "move") {
        MoveRequest r;
        if (auto m = in.string("move"))
            r.move = *m;
        else
            in.failMessage("move: needs a string 'move'");
        request = r;
    } else if (type == "undo") {
        UndoRequest r;
        r.plies = int(in.integer("plies", 1, 10000).value_or(1));
        request = r;
    } else if (type == "go") {
        request = readGo(in);
    } else if (type == "stop") {
        request = StopRequest{};
    } else if (type == "setOption") {
        SetOptionRequest r;
        if (auto name = in.string("name"))
            r.name = *name;
        else
            in.failMessage("setOption: needs a string 'name'");
        if (in.has("value")) {
            const Json& v = message["value"];
            if (v.is_string())
                r.value = v.get<std::string>();
            else if (v.is_boolean())
                r.value = v.get<bool>() ? "true" : "false";
            else if (v.is_number_integer())
                r.value = v.dump();
            else
                in.fail("value", "a string, an integer or a boolean");
        }
        request = r;
    } else if (type == "state") {
        request = StateRequest{};
    } else if (type == "evalPieces") {
        EvalPiecesRequest r;
        r.fen = in.string("fen");
        request = r;
    } else if (type == "tablebase") {
        TablebaseRequest r;
        r.fen = in.string("fen");
        request = r;
    } else {
        out.error = "unknown message type '" + type + "'";
        return out;
    }
    if (in.failed()) {
        out.error = in.error();
        return out;
    }
    out.request = std::move(request);
    return out;
}

ClampedLimits clampGo(const GoRequest& go, std::int64_t maxThinkMs, bool uncappedAnalysis) {
    ClampedLimits out;
    search::SearchLimits& l = out.limits;
    // Play is always capped: a client must not hold a search slot with a game move.
    const std::int64_t cap = uncappedAnalysis && !go.play ? 0 : maxThinkMs;
    out.maxTimeMs = cap;
    if (go.depth) l.depth = *go.depth;
    if (go.nodes) l.nodes = *go.nodes;
    if (go.movetime) {
        l.moveTimeMs = cap ? std::min(*go.movetime, cap) : *go.movetime;
        out.clamped = cap && *go.movetime > cap;
        out.maxTimeMs = l.moveTimeMs;
    }
    if (go.clock) {
        const auto atLeastOne = [](std::int64_t t) { return std::max<std::int64_t>(1, t); };
        l.timeMs[White] = atLeastOne(go.clock->wtime);
        l.timeMs[Black] = atLeastOne(go.clock->btime);
        l.incMs[White] = go.clock->winc;
        l.incMs[Black] = go.clock->binc;
        l.movesToGo = go.clock->movestogo;
    }
    // An infinite search, or one bounded by nothing, ends at the cap: it is reported clamped.
    l.infinite = go.infinite;
    if (cap && (go.infinite || (!go.depth && !go.nodes && !go.movetime && !go.clock)))
        out.clamped = true;
    return out;
}

std::string formatError(const Json& id, std::string_view message) {
    Json j = {{"type", "error"}, {"message", message}};
    if (!id.is_null()) j["id"] = id;
    return dump(j);
}

namespace {

const char* winnerOf(const Game& game) {
    if (game.status() != GameStatus::Checkmate) return nullptr;
    return game.position().sideToMove() == White ? "black" : "white";
}

const char* statusName(GameStatus status) {
    switch (status) {
    case GameStatus::Ongoing: return "ongoing";
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::FiftyMoveRule: return "fifty-moves";
    case GameStatus::ThreefoldRepetition: return "repetition";
    case GameStatus::InsufficientMaterial: return "insufficient-material";
    }
    return "ongoing";
}

void putId(Json& j, const Json& id) {
    if (!id.is_null()) j["id"] = id;
}

} // namespace

Json stateJson(const Game& game, bool searching) {
    const Position& pos = game.position();
    Json moves = Json::array();
    for (const PlayedMove& m : game.moves()) moves.push_back({{"uci", m.uci}, {"san", m.san}});
    Json legal = Json::array();
    const GameStatus status = game.status();
    // A finished game has no legal moves to offer, even where the rules would allow some
    // (a claimed draw by repetition or fifty moves ends it here).
    if (status == GameStatus::Ongoing)
        for (const Move m : MoveList(pos)) legal.push_back(toUci(m, game.chess960()));
    Json j = {{"type", "state"},
              {"fen", game.fen()},
              {"startFen", game.startFen()},
              {"turn", pos.sideToMove() == White ? "white" : "black"},
              {"chess960", game.chess960()},
              {"moves", std::move(moves)},
              {"legalMoves", std::move(legal)},
              {"check", pos.inCheck()},
              {"status", statusName(status)},
              {"searching", searching}};
    const char* winner = winnerOf(game);
    j["winner"] = winner ? Json(winner) : Json(nullptr);
    return j;
}

std::string formatState(const Json& id, const Game& game, bool searching) {
    Json j = stateJson(game, searching);
    putId(j, id);
    return dump(j);
}

std::vector<std::string> pvToSan(const Position& root, const std::vector<Move>& pv) {
    std::vector<std::string> out;
    Position pos = root;
    for (const Move m : pv) {
        if (!m || !MoveList(pos).contains(m)) break;
        out.push_back(toSan(pos, m));
        pos.makeMove(m);
    }
    return out;
}

std::string formatInfo(const Json& id, const search::SearchInfo& info, const Position& root,
                       bool chess960) {
    Json score;
    if (search::isMateScore(info.score)) {
        score["mate"] = search::mateDistance(info.score);
    } else if (search::isTbScore(info.score)) {
        // A tablebase result: the sign says who wins; "tb" marks it as no evaluation.
        score["cp"] = search::tbDisplayScore(info.score);
        score["tb"] = true;
    } else {
        score["cp"] = info.score;
    }
    score["bound"] = info.bound == search::Bound::Lower   ? "lower"
                     : info.bound == search::Bound::Upper ? "upper"
                                                          : "exact";
    Json pv = Json::array();
    for (const Move m : info.pv) pv.push_back(toUci(m, chess960));
    const std::uint64_t nps = search::nodesPerSecond(info.nodes, info.timeMs);
    Json j = {{"type", "info"},
              {"depth", info.depth},
              {"seldepth", info.selDepth},
              {"multipv", info.multiPv},
              {"score", std::move(score)},
              {"nodes", info.nodes},
              {"nps", nps},
              {"hashfull", info.hashfull},
              // Per mille for the side to move (search/wdl.h): the eval bar's win chances.
              {"wdl", Json::array({info.wdl.win, info.wdl.draw, info.wdl.loss})},
              {"time", info.timeMs},
              {"pv", std::move(pv)},
              {"pvSan", pvToSan(root, info.pv)}};
    putId(j, id);
    return dump(j);
}

std::string formatProgress(const Json& id, const search::SearchProgress& progress,
                           const Position& root, bool chess960) {
    Json j = {{"type", "progress"},
              {"depth", progress.depth},
              {"seldepth", progress.selDepth},
              {"nodes", progress.nodes},
              {"nps", search::nodesPerSecond(progress.nodes, progress.timeMs)},
              {"hashfull", progress.hashfull},
              {"time", progress.timeMs}};
    if (progress.currMove && MoveList(root).contains(progress.currMove)) {
        j["currmove"] = toUci(progress.currMove, chess960);
        j["currmoveSan"] = toSan(root, progress.currMove);
        j["currmovenumber"] = progress.currMoveNumber;
    }
    putId(j, id);
    return dump(j);
}

std::string formatBestMove(const Json& id, Move best, Move ponder, const Position& root,
                           bool chess960, bool played, bool yielded) {
    Json j = {{"type", "bestmove"}, {"played", played}};
    if (yielded) j["yielded"] = true;
    if (best && MoveList(root).contains(best)) {
        j["move"] = toUci(best, chess960);
        j["san"] = toSan(root, best);
        Position after = root;
        after.makeMove(best);
        if (ponder && MoveList(after).contains(ponder)) {
            j["ponder"] = toUci(ponder, chess960);
            j["ponderSan"] = toSan(after, ponder);
        } else {
            j["ponder"] = nullptr;
        }
    } else {
        j["move"] = nullptr; // no legal move: the game is over
        j["ponder"] = nullptr;
    }
    putId(j, id);
    return dump(j);
}

std::string formatSearching(const Json& id, const ClampedLimits& limits) {
    Json j = {{"type", "searching"}, {"maxTimeMs", nullptr}, {"clamped", limits.clamped}};
    if (limits.maxTimeMs > 0) j["maxTimeMs"] = limits.maxTimeMs;
    putId(j, id);
    return dump(j);
}

std::string formatQueued(const Json& id, int position) {
    Json j = {{"type", "queued"}, {"position", position}};
    putId(j, id);
    return dump(j);
}

std::string formatTablebase(const Json& id, const Position& pos,
                            const engine::TablebaseReport& report, bool available) {
    Json j = {{"type", "tablebase"},
              {"fen", toFen(pos)},
              {"available", available},
              {"inTables", report.inTables}};
    if (report.inTables) {
        j["wdl"] = tablebase::wdlName(report.wdl);
        j["dtz"] = report.dtz;
        Json moves = Json::array();
        for (const auto& m : report.moves)
            moves.push_back({{"uci", toUci(m.move, pos.isChess960())},
                             {"san", toSan(pos, m.move)},
                             {"wdl", tablebase::wdlName(m.wdl)},
                             {"dtz", m.dtz}});
        j["moves"] = std::move(moves);
    }
    putId(j, id);
    return dump(j);
}

std::string formatPieces(const Json& id, const std::string& fen,
                         const engine::PieceContributions& contributions) {
    Json pieces = Json::array();
    for (const engine::PieceContribution& p : contributions.pieces)
        pieces.push_back({{"square", squareName(p.square)},
                          {"piece", std::string(1, pieceChar(p.piece))},
                          {"cp", p.cp}});
    Json j = {{"type", "pieces"},
              {"fen", fen},
              {"base", contributions.base},
              {"pieces", std::move(pieces)}};
    putId(j, id);
    return dump(j);
}

} // namespace axon::server
