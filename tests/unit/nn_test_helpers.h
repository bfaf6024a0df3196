// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers for the network tests: the architectures they cover, positions to play from,
// and board transformations under which an evaluation must not change.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include "chess/perft_suite.h"
#include "engine/bench.h"
#include "nn/network.h"
#include "test_helpers.h"

namespace axon::test {

struct NetVariant {
    const char* name;
    int hidden;
    int inputBuckets;
    bool mirror;
    int outputBuckets;
    int l1 = 0, l2 = 0; // the layer stack (0: none)
};

// Small and typical sizes, with and without each option the format can switch on. Sixteen
// king buckets of four squares each make king moves cross bucket boundaries often. The
// layered ones cover the smallest stack and a typical one.
inline const std::vector<NetVariant>& netVariants() {
    static const std::vector<NetVariant> variants = {
        {"h32-plain", 32, 1, false, 1},
        {"h32-mirror", 32, 1, true, 1},
        {"h32-buckets16", 32, 16, false, 8},
        {"h32-all64", 32, 64, true, 8},
        {"h256-plain", 256, 1, false, 1},
        {"h256-buckets4-mirror", 256, 4, true, 8},
        {"h64-stack16x1", 64, 1, false, 1, 16, 1},
        {"h256-buckets4-mirror-stack16x32", 256, 4, true, 8, 16, 32},
    };
    return variants;
}

inline nn::Architecture makeArch(const NetVariant& v) {
    nn::Architecture a;
    a.hidden = v.hidden;
    a.inputBuckets = v.inputBuckets;
    a.bucketMap = nn::evenBucketMap(v.inputBuckets);
    a.mirror = v.mirror;
    a.outputBuckets = v.outputBuckets;
    a.l1 = v.l1;
    a.l2 = v.l2;
    return a;
}

// The bench positions plus the standard, Chess960 and tricky perft suites (castling, en
// passant and promotion positions); the suites are skipped when the shared data is missing.
inline std::vector<chess::Position> playPositions() {
    std::vector<chess::Position> out;
    for (const std::string& f : engine::benchPositions()) out.push_back(fen(f));
    for (const char* file : {"perft/standard.epd", "perft/fischer.epd", "perft/tricky.perft"}) {
        std::ifstream in(sharedData(file));
        if (!in) continue;
        auto suite = chess::readPerftSuite(in);
        if (!suite) continue;
        int taken = 0;
        for (const auto& c : *suite) {
            auto pos = chess::parseFen(c.fen);
            // Every Chess960 start would be many more plies than the test needs.
            if (pos && ++taken <= 60) out.push_back(*pos);
        }
    }
    return out;
}

// The position with colours swapped and the board flipped vertically (castling rights and the
// en-passant square dropped: evaluations do not read them).
inline chess::Position colourFlipped(const chess::Position& pos) {
    chess::Position out;
    out.clear();
    for (int s = 0; s < chess::kNumSquares; ++s) {
        const chess::Piece p = pos.pieceOn(chess::Square(s));
        if (p != chess::NoPiece)
            out.putPiece(chess::makePiece(~chess::colorOf(p), chess::typeOf(p)),
                         chess::flipRank(chess::Square(s)));
    }
    out.setSideToMove(~pos.sideToMove());
    out.finishSetup();
    return out;
}

// The position mirrored left-right (castling and en passant dropped likewise).
inline chess::Position fileMirrored(const chess::Position& pos) {
    chess::Position out;
    out.clear();
    for (int s = 0; s < chess::kNumSquares; ++s) {
        const chess::Piece p = pos.pieceOn(chess::Square(s));
        if (p != chess::NoPiece) out.putPiece(p, chess::Square(s ^ 7));
    }
    out.setSideToMove(pos.sideToMove());
    out.finishSetup();
    return out;
}

} // namespace axon::test
