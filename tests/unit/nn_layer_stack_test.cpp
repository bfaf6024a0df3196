// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack's integer tail (finishLayerStack) on every compiled back end: its fixed-shape
// fast paths, the SIMD second layer and the plain one (an l2 that is not a whole number of
// registers), against the arithmetic layer_stack.h documents, written here in int64 without
// shortcuts.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "nn/layer_stack.h"
#include "nn_backends.h"
#include "nn_test_helpers.h"
#include "util/prng.h"

using namespace axon;

namespace {

// The documented tail: every step in int64, divisions as written in the header.
int documentedTail(const nn::Network& net, const std::vector<std::int32_t>& sums, int bucket) {
    const nn::Architecture& a = net.arch;
    const auto b = std::size_t(bucket), l1 = std::size_t(a.l1), l2 = std::size_t(a.l2);
    // S1 = 65025/8: y1 = clamp(h1 / S1, 0, 1) * QH = clamp(8 h1, 0, 65025) * QH / 65025.
    const std::int64_t num = 65025, den = 8, qh = nn::kLayerActivationScale,
                       w = nn::kLayerWeightScale;
    EXPECT_EQ(nn::kL1SumNumerator, num);
    EXPECT_EQ(nn::kL1SumDenominator, den);
    std::vector<std::int64_t> y1(l1);
    for (std::size_t j = 0; j < l1; ++j)
        y1[j] = std::min<std::int64_t>(
            std::clamp<std::int64_t>((std::int64_t(sums[j]) + net.l1Biases[b * l1 + j]) * den, 0,
                                     num) *
                qh / num,
            32767); // int16
    std::int64_t out = std::int64_t(net.outBiases[b]) * w;
    for (std::size_t k = 0; k < l2; ++k) {
        std::int64_t h2 = std::int64_t(net.l2Biases[b * l2 + k]) * w;
        for (std::size_t j = 0; j < l1; ++j)
            h2 += y1[j] * net.l2Weights[nn::l2WeightIndex(a, bucket, int(j), int(k))];
        out += std::clamp<std::int64_t>(h2, 0, qh * w) / w * net.outRow(bucket)[k];
    }
    return int(out * a.scale / (qh * w));
}

template <typename B>
class LayerStackTail : public ::testing::Test {};
TYPED_TEST_SUITE(LayerStackTail, test::CompiledBackends, test::BackendName);

} // namespace

TYPED_TEST(LayerStackTail, EveryShapeFollowsTheDocumentedArithmetic) {
    using B = TypeParam;
    util::Prng rng(41);
    // 16x32, 16x16 and 32x32 take the fixed-shape paths, the others the general one; an l2 of
    // 1 or 8 is not a whole number of AVX-512 registers (8 is one of AVX2's).
    const std::pair<int, int> shapes[] = {{16, 32}, {16, 16},  {32, 32}, {16, 1},
                                          {48, 8},  {32, 128}, {16, 48}, {32, 112}};
    for (const auto& [l1, l2] : shapes) {
        nn::Architecture arch;
        arch.hidden = 128;
        arch.outputBuckets = 4;
        arch.l1 = l1;
        arch.l2 = l2;
        const nn::Network net = nn::makeRandomNetwork(arch, 5 + std::uint64_t(l1 * 131 + l2));
        ASSERT_FALSE(nn::checkLayerStackBounds(net).has_value());
        int active = 0, saturated = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const int bucket = int(rng.below(4));
            // First-layer sums (with their biases) on both sides of both clip points (0 and
            // S1 = 8128.125), and at them: -1, 0 and 1; 8128 (just below S1) and 8129 (just
            // above). The sums handed over exclude the bias, so the clip points are made
            // exactly by subtracting it.
            std::vector<std::int32_t> sums(static_cast<std::size_t>(l1));
            for (std::size_t j = 0; j < sums.size(); ++j) {
                const std::int32_t bias = net.l1Biases[std::size_t(bucket) * sums.size() + j];
                const int kind = int(rng.below(8));
                const std::int64_t s1 = 8128;
                const std::int64_t h = kind <= 2   ? kind - 1
                                       : kind == 3 ? s1
                                       : kind == 4
                                           ? s1 + 1
                                           : std::int64_t(rng.below(std::uint64_t(3 * s1))) - s1;
                sums[j] = std::int32_t(h - bias);
                active += h > 0 && h <= s1;
                saturated += h > s1;
            }
            ASSERT_EQ(nn::finishLayerStack<B>(net, sums.data(), bucket),
                      documentedTail(net, sums, bucket))
                << l1 << "x" << l2 << " trial " << trial;
        }
        EXPECT_GT(active, 0);
        EXPECT_GT(saturated, 0);
    }
}
