// SPDX-License-Identifier: GPL-3.0-or-later
// Random walks through legal moves that drive accumulator stacks the way a search will: moves
// and null moves pushed, plies popped, positions evaluated only now and then.
#pragma once

#include <functional>

#include "chess/movegen.h"
#include "nn/arch.h"
#include "util/prng.h"

namespace axon::test {

struct PlayoutCounts {
    int plies = 0, pops = 0, nullMoves = 0, evaluations = 0;
    int captures = 0, castlings = 0, chess960Castlings = 0, enPassants = 0, promotions = 0;
    // King moves that changed their side's king bucket or mirror side.
    int orientationChanges = 0;
};

// Plays up to `plies` random steps from `start`, calling push(pos, move) / pushNull() /
// pop() before the position changes and reset(pos) at the start, and check(pos) at random
// times (about one step in `checkEvery`).
struct PlayoutHooks {
    std::function<void(const chess::Position&)> reset;
    std::function<void(const chess::Position&, chess::Move)> push;
    std::function<void()> pushNull;
    std::function<void()> pop;
    std::function<void(const chess::Position&)> check;
};

inline void playout(const chess::Position& start, const nn::Architecture& arch, int plies,
                    int checkEvery, util::Prng& rng, const PlayoutHooks& hooks,
                    PlayoutCounts& counts) {
    using namespace chess;
    Position pos = start;
    std::vector<bool> isNull;
    hooks.reset(pos);
    hooks.check(pos);
    auto popOne = [&] {
        if (isNull.back())
            pos.unmakeNullMove();
        else
            pos.unmakeMove();
        isNull.pop_back();
        hooks.pop();
        ++counts.pops;
    };
    for (int step = 0; step < plies; ++step) {
        const MoveList moves(pos);
        const auto roll = rng.below(16);
        if (moves.empty() || (roll == 0 && !isNull.empty())) {
            if (isNull.empty()) break;
            for (int n = 1 + int(rng.below(3)); n > 0 && !isNull.empty(); --n) popOne();
        } else if (roll == 1 && !pos.inCheck()) {
            hooks.pushNull();
            pos.makeNullMove();
            isNull.push_back(true);
            ++counts.nullMoves;
        } else {
            // Special moves are rare in random play: take one, when there is one, half the time.
            std::vector<Move> special;
            for (const Move m : moves)
                if (m.type() != MoveType::Normal) special.push_back(m);
            const Move m = !special.empty() && rng.below(2) == 0
                               ? special[rng.below(special.size())]
                               : moves[int(rng.below(std::uint64_t(moves.size())))];
            const Color us = pos.sideToMove();
            counts.captures += pos.isCapture(m);
            counts.castlings += m.type() == MoveType::Castling;
            counts.chess960Castlings += m.type() == MoveType::Castling && pos.isChess960();
            counts.enPassants += m.type() == MoveType::EnPassant;
            counts.promotions += m.type() == MoveType::Promotion;
            const nn::Orientation before = nn::orientation(arch, us, pos.kingSquare(us));
            hooks.push(pos, m);
            pos.makeMove(m);
            isNull.push_back(false);
            counts.orientationChanges += !(nn::orientation(arch, us, pos.kingSquare(us)) == before);
            ++counts.plies;
        }
        if (rng.below(std::uint64_t(checkEvery)) == 0) {
            hooks.check(pos);
            ++counts.evaluations;
        }
    }
}

} // namespace axon::test
