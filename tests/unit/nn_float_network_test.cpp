// SPDX-License-Identifier: GPL-3.0-or-later
// Float <-> quantised perspective networks: exact round trip and matching evaluations.
#include <gtest/gtest.h>

#include <cmath>

#include "chess/fen.h"
#include "nn/accumulator.h"
#include "nn/float_network.h"

using namespace axon;

TEST(FloatNetwork, DequantiseThenQuantiseIsExact) {
    nn::Architecture arch;
    arch.hidden = 64;
    arch.outputBuckets = 4;
    const nn::Network net = nn::makeRandomNetwork(arch, 7);
    EXPECT_EQ(nn::quantise(nn::dequantise(net)), net);
}

TEST(FloatNetwork, FloatEvaluationMatchesTheQuantisedOne) {
    nn::Architecture arch;
    arch.hidden = 64;
    arch.mirror = true;
    const nn::Network net = nn::makeRandomNetwork(arch, 11);
    const nn::FloatNetwork f = nn::dequantise(net);
    for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
        const auto pos = chess::parseFen(fen);
        ASSERT_TRUE(pos.ok());
        const int quantised = nn::evaluateReference(net, *pos);
        const float exact = nn::evaluateFloat(f, *pos);
        // The kernels truncate twice (by QA, then to centipawns): within 2 cp.
        EXPECT_LE(std::abs(exact - float(quantised)), 2.0f) << fen;
    }
}
