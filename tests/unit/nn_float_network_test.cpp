// SPDX-License-Identifier: GPL-3.0-or-later
// Float <-> quantised perspective networks: exact round trip and matching evaluations.
#include <gtest/gtest.h>

#include <cmath>

#include "chess/fen.h"
#include "nn/accumulator.h"
#include "nn/float_network.h"
#include "nn_test_helpers.h"

using namespace axon;

TEST(FloatNetwork, DequantiseThenQuantiseIsExact) {
    nn::Architecture arch;
    arch.hidden = 64;
    arch.outputBuckets = 4;
    const nn::Network net = nn::makeRandomNetwork(arch, 7);
    EXPECT_EQ(nn::quantise(nn::dequantise(net)), net);
}

TEST(FloatNetwork, LayeredDequantiseThenQuantiseIsExact) {
    nn::Architecture arch;
    arch.hidden = 128;
    arch.outputBuckets = 4;
    arch.l1 = 16;
    arch.l2 = 8;
    const nn::Network net = nn::makeRandomNetwork(arch, 9);
    EXPECT_EQ(nn::quantise(nn::dequantise(net)), net);
}

// The stack's quantised evaluation follows its float semantics (layer_stack.h) up to rounding:
// the pairwise products are floored to 1/127, every later step loses less.
TEST(FloatNetwork, LayeredFloatEvaluationMatchesTheQuantisedOne) {
    nn::Architecture arch;
    arch.hidden = 128;
    arch.mirror = true;
    arch.outputBuckets = 8;
    arch.l1 = 16;
    arch.l2 = 32;
    const auto positions = axon::test::playPositions();
    ASSERT_GT(positions.size(), 10u);
    for (std::uint64_t seed : {3, 4, 5}) {
        const nn::Network net = nn::makeRandomNetwork(arch, seed);
        const nn::FloatNetwork f = nn::dequantise(net);
        double errorSum = 0, spread = 0;
        for (const chess::Position& pos : positions) {
            const int quantised = nn::evaluateReference(net, pos);
            const float exact = nn::evaluateFloat(f, pos);
            EXPECT_LE(std::abs(exact - float(quantised)), 12.0f) << chess::toFen(pos);
            errorSum += std::abs(exact - float(quantised));
            spread += std::abs(exact);
        }
        // Not a constant network: the evaluations vary far more than the rounding.
        EXPECT_GT(spread, 20 * errorSum + 1) << seed;
    }
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
