// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the WebSocket JSON protocol of `axon serve` (docs/server.md) below the network: any
// text is either a typed request or an error message that is itself valid JSON; a request is
// applied to a game as the session would (FEN, PGN, UCI or SAN moves, undo), every reply
// formatted from it parses as JSON, and a search request's limits are bounded by the think-time
// cap whatever it asked; evalPieces answers one contribution per piece but the kings.
#include <nlohmann/json.hpp>

#include "chess/fen.h"
#include "engine/engine.h"
#include "engine/eval_file.h"
#include "fuzz_check.h"
#include "server/protocol.h"

using namespace axon;
using namespace axon::server;
using fuzz::require;

namespace {

constexpr std::int64_t kMaxThinkMs = 5000;

void requireJson(const std::string& text, const char* what) {
    require(nlohmann::json::accept(text), what, text.substr(0, 300));
}

struct Apply {
    Game& game;
    const Json& id;

    void operator()(const NewGameRequest& r) const {
        if (auto g = Game::fromFen(r.fen, r.chess960)) game = std::move(*g);
    }
    void operator()(const PositionRequest& r) const {
        auto g = r.pgn ? Game::fromPgn(*r.pgn) : Game::fromFen(r.fen, r.chess960);
        if (!g) return requireJson(formatError(id, g.error()), "a position error is JSON");
        for (const std::string& move : r.moves)
            if (g->play(move)) break;
        game = std::move(*g);
    }
    void operator()(const MoveRequest& r) const {
        const std::string before = game.fen();
        if (auto error = game.play(r.move))
            require(game.fen() == before, "an illegal move leaves the game unchanged", r.move);
    }
    void operator()(const UndoRequest& r) const {
        const std::size_t played = game.moves().size();
        if (game.undo(r.plies))
            require(game.moves().size() == played, "a refused undo leaves the game unchanged");
    }
    void operator()(const GoRequest& r) const {
        const ClampedLimits limits = clampGo(r, kMaxThinkMs);
        require(limits.maxTimeMs > 0 && limits.maxTimeMs <= kMaxThinkMs,
                "every search is bounded by the think-time cap");
        require(limits.limits.moveTimeMs <= kMaxThinkMs, "movetime is clamped");
        requireJson(formatSearching(id, limits), "searching is JSON");
        // A local client's analysis has no cap, but a game move always has.
        const ClampedLimits local = clampGo(r, kMaxThinkMs, true);
        if (r.play)
            require(local.maxTimeMs > 0 && local.maxTimeMs <= kMaxThinkMs,
                    "a game move is capped for a local client too");
        requireJson(formatSearching(id, local), "an uncapped searching is JSON");
        (void)engine::checkSearchSettings({r.multipv, r.elo, r.skill});
    }
    void operator()(const StopRequest&) const {}
    void operator()(const SetOptionRequest&) const {}
    void operator()(const StateRequest&) const {}
    void operator()(const EvalPiecesRequest& r) const {
        auto pos = r.fen ? chess::parseFen(*r.fen) : util::Result<chess::Position>(game.position());
        if (!pos) return requireJson(formatError(id, pos.error()), "an evalPieces error is JSON");
        // The embedded network, as a session evaluates (the hand-written evaluation without one).
        static const eval::EvalSource source{engine::embeddedNetwork(), {}};
        const engine::PieceContributions c = eval::pieceContributions(source, *pos);
        require(int(c.pieces.size()) == chess::popcount(pos->pieces()) - 2,
                "every piece but the kings has a contribution");
        requireJson(formatPieces(id, chess::toFen(*pos), c), "a pieces reply is JSON");
    }
    void operator()(const TablebaseRequest& r) const {
        auto pos = r.fen ? chess::parseFen(*r.fen) : util::Result<chess::Position>(game.position());
        if (!pos) return requireJson(formatError(id, pos.error()), "a tablebase error is JSON");
        // A session without tables answers "available": false with nothing in the tables.
        requireJson(formatTablebase(id, *pos, engine::TablebaseReport{}, false),
                    "a tablebase reply is JSON");
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::asText(data, size);
    const ParsedMessage parsed = parseClientMessage(text);
    if (!parsed.request) {
        require(!parsed.error.empty(), "a refused message has a reason");
        requireJson(formatError(parsed.id, parsed.error), "an error reply is JSON");
        return 0;
    }
    Game game;
    std::visit(Apply{game, parsed.id}, *parsed.request);
    requireJson(formatState(parsed.id, game, false), "a state reply is JSON");
    require(chess::parseFen(game.fen()).ok(), "the game's FEN parses", game.fen());
    return 0;
}
