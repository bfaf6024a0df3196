// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the SAN reader on a few fixed positions: any text is either rejected with a message or
// names a legal move, whose SAN as written by toSan reads back to the same move.
#include <array>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "fuzz_check.h"

using namespace axon::chess;
using axon::fuzz::require;

namespace {

// Castling both ways, promotions with and without capture, en passant, Chess960 castling and
// moves that need file, rank or full-square disambiguation.
constexpr std::array kFens = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "K6k/8/8/3Q1Q2/8/3Q1Q2/8/R5R1 w - - 0 1",
    "6k1/8/8/8/8/1N3N2/8/1N3NK1 w - - 0 1",
};

const std::array<Position, kFens.size()>& positions() {
    static const auto all = [] {
        std::array<Position, kFens.size()> result;
        for (std::size_t i = 0; i < kFens.size(); ++i) {
            auto pos = parseFen(kFens[i]);
            require(pos.ok(), "fixed FEN parses", kFens[i]);
            result[i] = *pos;
        }
        return result;
    }();
    return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = axon::fuzz::asText(data, size);
    for (const Position& pos : positions()) {
        auto move = parseSan(pos, text);
        if (!move) {
            require(!move.error().empty(), "a rejected SAN has a message", std::string(text));
            continue;
        }
        const std::string where = toFen(pos) + " | " + std::string(text);
        require(MoveList(pos).contains(*move), "parseSan returns a legal move", where);
        const std::string san = toSan(pos, *move);
        auto again = parseSan(pos, san);
        require(again.ok() && *again == *move, "toSan reads back to the same move",
                where + " -> " + san);
    }
    return 0;
}
