// SPDX-License-Identifier: GPL-3.0-or-later
// Every SIMD back end gives the scalar back end's results bit for bit, on raw kernels with
// extreme values and on whole evaluations; and evaluations are symmetric where the encoding
// makes them so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "nn/accumulator.h"
#include "nn/kernels.h"
#include "nn_backends.h"
#include "nn_playout.h"
#include "nn_test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

// The back ends this build compiled (nn_backends.h). A build with none besides the scalar one
// compiles no comparison, and the listing test below says so instead of passing silently.
template <typename B>
class NnSimdBackend : public ::testing::Test {};
TYPED_TEST_SUITE(NnSimdBackend, CompiledBackends, BackendName);

std::vector<std::int16_t> randomLanes(util::Prng& rng, int n, bool extreme) {
    std::vector<std::int16_t> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
        const auto r = rng.next();
        // Extremes make the int16 sums wrap, which every back end must do alike.
        x = extreme && (r & 7) == 0 ? std::int16_t((r >> 8) & 1 ? 32767 : -32768)
                                    : std::int16_t(std::uint16_t(r >> 16));
    }
    return v;
}

TYPED_TEST(NnSimdBackend, KernelsEqualScalar) {
    using B = TypeParam;
    util::Prng rng(99);
    for (const int hidden : {32, 64, 256, 768, 1024}) {
        for (int trial = 0; trial < 200; ++trial) {
            const bool extreme = trial % 2;
            const auto src = randomLanes(rng, hidden, extreme);
            std::vector<std::vector<std::int16_t>> rows;
            for (int i = 0; i < 4; ++i) rows.push_back(randomLanes(rng, hidden, extreme));
            const std::int16_t* adds[2] = {rows[0].data(), rows[1].data()};
            const std::int16_t* subs[2] = {rows[2].data(), rows[3].data()};
            const int na = int(rng.below(3)), ns = int(rng.below(3));
            std::vector<std::int16_t> a(static_cast<std::size_t>(hidden)), b(a);
            nn::kernels::updateRows<nn::simd::Scalar>(a.data(), src.data(), adds, na, subs, ns,
                                                      hidden);
            nn::kernels::updateRows<B>(b.data(), src.data(), adds, na, subs, ns, hidden);
            ASSERT_EQ(a, b) << "hidden " << hidden << " trial " << trial;
            // Any QA and any weights, even those the loader refuses: the back ends still agree.
            const auto qa = std::int16_t(1 + rng.below(1023));
            ASSERT_EQ(
                nn::kernels::screluDot<nn::simd::Scalar>(src.data(), rows[0].data(), hidden, qa),
                nn::kernels::screluDot<B>(src.data(), rows[0].data(), hidden, qa))
                << "hidden " << hidden << " trial " << trial;
        }
    }
}

// The layer stack's kernels: the pairwise products over accumulators beyond both clip points
// (as bytes), and the first layer over sparse byte inputs with any 8-bit weights.
TYPED_TEST(NnSimdBackend, LayerStackKernelsEqualScalar) {
    using B = TypeParam;
    util::Prng rng(17);
    for (int trial = 0; trial < 400; ++trial) {
        const int hidden = 64 * (1 + int(rng.below(8))), half = hidden / 2;
        const int l1 = nn::kL1Multiple * (1 + int(rng.below(8)));
        std::vector<std::int16_t> acc(static_cast<std::size_t>(hidden));
        for (auto& x : acc) x = std::int16_t(int(rng.below(800)) - 250);
        // One byte of slack past the end: a back end that stores more than `half` bytes fails.
        std::vector<std::uint8_t> a(static_cast<std::size_t>(half) + 1, 0xA5), b(a);
        nn::kernels::pairwiseProducts<nn::simd::Scalar>(acc.data(), a.data(), half, 255);
        nn::kernels::pairwiseProducts<B>(acc.data(), b.data(), half, 255);
        ASSERT_EQ(a, b) << "trial " << trial;
        ASSERT_EQ(b.back(), 0xA5) << "trial " << trial;
        for (std::size_t i = 0; i + 1 < a.size(); ++i) {
            const int u = std::clamp<int>(acc[i], 0, 255),
                      v = std::clamp<int>(acc[i + std::size_t(half)], 0, 255);
            ASSERT_EQ(a[i], (u * v) >> 9) << "trial " << trial << " lane " << i;
        }
        // Inputs a third non-zero (0..127, the products' range), so both skipped and summed
        // quads occur; half the trials with the extreme weights -128 and 127 against input 127.
        std::vector<std::uint8_t> input(static_cast<std::size_t>(hidden));
        for (auto& x : input)
            x = rng.below(3) == 0 ? (trial % 2 ? 127 : std::uint8_t(rng.below(128))) : 0;
        std::vector<std::int8_t> w(static_cast<std::size_t>(hidden * l1));
        for (auto& x : w)
            x = trial % 2 && rng.below(4) == 0 ? std::int8_t(rng.below(2) ? 127 : -128)
                                               : std::int8_t(std::uint8_t(rng.next() >> 24));
        std::vector<std::int32_t> s1(static_cast<std::size_t>(l1)), s2(s1);
        nn::kernels::l1Layer<nn::simd::Scalar>(input.data(), w.data(), hidden, l1, s1.data());
        nn::kernels::l1Layer<B>(input.data(), w.data(), hidden, l1, s2.data());
        ASSERT_EQ(s1, s2) << "trial " << trial;
        // And the plain sum, quad-interleaved as layer_stack.h lays the weights out.
        for (int j = 0; j < l1; ++j) {
            std::int64_t sum = 0;
            for (int i = 0; i < hidden; ++i)
                sum += std::int64_t(input[std::size_t(i)]) *
                       w[std::size_t(((i / 4) * l1 + j) * 4 + (i & 3))];
            ASSERT_EQ(s1[std::size_t(j)], sum) << "trial " << trial << " unit " << j;
        }
    }
}

// The layer stack's second layer: int16 activations (0..32767) against pair-interleaved
// int16 weights, every output the plain sum modulo 2^32 (the kernels wrap; the network's bounds
// keep real sums inside int32). Half the trials use the extremes 32767 and -32768.
TYPED_TEST(NnSimdBackend, LayerStackSecondLayerEqualsPlainSums) {
    using B = TypeParam;
    util::Prng rng(53);
    constexpr int kLanes32 = B::kLanes16 / 2;
    // Every register count a block takes (1 to 8, and 8 + 6) on every lane width.
    const std::pair<int, int> shapes[] = {
        {16, 32},           {16, 16},           {32, 32},           {48, 128}, {16, 8 * kLanes32},
        {16, 24},           {16, 48},           {32, 80},           {16, 112}, {32, 3 * kLanes32},
        {16, 5 * kLanes32}, {16, 7 * kLanes32}, {16, 14 * kLanes32}};
    for (const auto& [l1, l2] : shapes) {
        if (l2 % kLanes32 != 0) continue; // the plain loop's case, not this kernel's
        for (int trial = 0; trial < 200; ++trial) {
            const bool extreme = trial % 2 == 1;
            std::vector<std::int16_t> y1(static_cast<std::size_t>(l1));
            for (auto& y : y1)
                y = rng.below(3) == 0         ? 0
                    : extreme && rng.below(2) ? 32767
                                              : std::int16_t(rng.below(32768));
            std::vector<std::int16_t> w(static_cast<std::size_t>(l1 * l2));
            for (auto& x : w)
                x = extreme && rng.below(3) == 0 ? std::int16_t(rng.below(2) ? 32767 : -32768)
                                                 : std::int16_t(std::uint16_t(rng.next() >> 16));
            std::vector<std::int32_t> h2(static_cast<std::size_t>(l2));
            nn::kernels::l2Layer<B>(y1.data(), w.data(), l1, l2, h2.data());
            for (int k = 0; k < l2; ++k) {
                std::int64_t sum = 0;
                for (int j = 0; j < l1; ++j)
                    sum += std::int64_t(y1[std::size_t(j)]) *
                           w[std::size_t(((j / 2) * l2 + k) * 2 + (j & 1))];
                ASSERT_EQ(std::uint32_t(h2[std::size_t(k)]), std::uint32_t(std::uint64_t(sum)))
                    << l1 << "x" << l2 << " trial " << trial << " unit " << k;
            }
        }
    }
}

TYPED_TEST(NnSimdBackend, EvaluationsEqualScalar) {
    using B = TypeParam;
    const auto positions = playPositions();
    for (const NetVariant& v : netVariants()) {
        const nn::Network net = nn::makeRandomNetwork(makeArch(v), 23);
        nn::BasicAccumulatorStack<nn::simd::Scalar> scalar(net);
        nn::BasicAccumulatorStack<B> simd(net);
        util::Prng rng(7);
        PlayoutCounts counts;
        int compared = 0;
        PlayoutHooks hooks;
        hooks.reset = [&](const Position& p) { scalar.reset(p), simd.reset(p); };
        hooks.push = [&](const Position& p, Move m) { scalar.push(p, m), simd.push(p, m); };
        hooks.pushNull = [&] { scalar.pushNull(), simd.pushNull(); };
        hooks.pop = [&] { scalar.pop(), simd.pop(); };
        hooks.check = [&](const Position& p) {
            const int a = scalar.evaluate(p), b = simd.evaluate(p);
            for (const Color c : {White, Black})
                ASSERT_EQ(std::memcmp(scalar.accumulator(p, c), simd.accumulator(p, c),
                                      sizeof(std::int16_t) * std::size_t(v.hidden)),
                          0)
                    << v.name << " " << toFen(p);
            ASSERT_EQ(a, b) << v.name << " " << toFen(p);
            ++compared;
        };
        for (const Position& start : positions)
            ASSERT_NO_FATAL_FAILURE(playout(start, net.arch, 60, 1, rng, hooks, counts));
        EXPECT_GT(compared, 5'000) << v.name;
    }
}

// Positions visited by random play from the test positions.
std::vector<Position> visitedPositions(int perStart) {
    std::vector<Position> out;
    util::Prng rng(5);
    for (const Position& start : playPositions()) {
        Position pos = start;
        for (int i = 0; i < perStart; ++i) {
            const MoveList moves(pos);
            if (moves.empty()) break;
            pos.makeMove(moves[int(rng.below(std::uint64_t(moves.size())))]);
            out.push_back(pos);
        }
    }
    return out;
}

// A position's evaluation from a full refresh (reset), never from incremental updates. One
// stack per network, reused: a new stack per call was 99 % of these tests' time under ASan
// (44 s), which poisons and clears each large allocation.
class FreshEvaluator {
  public:
    explicit FreshEvaluator(const nn::Network& net) : stack_(net) {}
    int operator()(const Position& pos) {
        stack_.reset(pos);
        return stack_.evaluate(pos);
    }

  private:
    nn::AccumulatorStack stack_;
};

// Features are relative to each perspective, so swapping colours and flipping the board gives
// every network the same inputs in the same order: the evaluation must not change.
TEST(NnSymmetry, ColourFlipLeavesEvaluationUnchanged) {
    const auto positions = visitedPositions(20);
    ASSERT_GT(positions.size(), 1'000u);
    for (const NetVariant& v : netVariants()) {
        const nn::Network net = nn::makeRandomNetwork(makeArch(v), 31);
        FreshEvaluator evaluate(net);
        for (const Position& pos : positions)
            ASSERT_EQ(evaluate(pos), evaluate(colourFlipped(pos))) << v.name << " " << toFen(pos);
    }
}

// With mirroring and a bucket map symmetric between files, a position and its left-right
// mirror are the same inputs; without mirroring they are not (the check can fail).
TEST(NnSymmetry, FileMirrorInvariantOnlyWithMirroring) {
    const auto positions = visitedPositions(10);
    nn::Architecture a = makeArch({"t", 64, 8, true, 8});
    for (int s = 0; s < kNumSquares; ++s) {
        const int file = fileOf(Square(s)), edge = file < 4 ? file : 7 - file;
        a.bucketMap[s] = std::uint8_t(rankOf(Square(s)) % 4 * 2 + edge / 2);
    }
    const nn::Network mirrored = nn::makeRandomNetwork(a, 8);
    a.mirror = false;
    const nn::Network plain = nn::makeRandomNetwork(a, 8);
    FreshEvaluator evaluateMirrored(mirrored), evaluatePlain(plain);
    int plainDiffers = 0;
    for (const Position& pos : positions) {
        const Position m = fileMirrored(pos);
        ASSERT_EQ(evaluateMirrored(pos), evaluateMirrored(m)) << toFen(pos);
        plainDiffers += evaluatePlain(pos) != evaluatePlain(m);
    }
    EXPECT_GT(plainDiffers, int(positions.size()) / 2);
}

} // namespace
} // namespace axon::test
