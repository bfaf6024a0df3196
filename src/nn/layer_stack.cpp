// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack's integer tail (after the first layer's sums) and its plain reference.
#include "nn/layer_stack.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace axon::nn {

namespace {

// Whether sum |row[i]| * inputMax + |bias| * biasFactor stays within `limit` for each of `rows`
// rows of `n` weights; the first row that does not, or -1.
long firstRowBeyond(const std::int16_t* w, const std::int32_t* biases, std::size_t rows,
                    std::size_t n, std::int64_t inputMax, std::int64_t biasFactor,
                    std::int64_t limit) {
    for (std::size_t r = 0; r < rows; ++r) {
        std::int64_t sum = std::abs(std::int64_t(biases[r])) * biasFactor;
        for (std::size_t i = 0; i < n; ++i) sum += std::abs(std::int64_t(w[r * n + i])) * inputMax;
        if (sum > limit) return long(r);
    }
    return -1;
}

} // namespace

std::optional<std::string> checkLayerStackBounds(const Network& net) {
    const Architecture& a = net.arch;
    const auto ob = std::size_t(a.outputBuckets), l1 = std::size_t(a.l1), l2 = std::size_t(a.l2);
    const std::int64_t limit = 0x7FFFFFFF;
    const std::int64_t pairMax = (std::int64_t(kLayeredQa) * kLayeredQa) >> kPairwiseShift;
    // The first layer's weights are bytes: at most 4096 x 127 x 128 per unit, so only a bias
    // can take a unit's sum beyond 32 bits.
    for (std::size_t b = 0; b < ob; ++b)
        for (std::size_t j = 0; j < l1; ++j) {
            std::int64_t sum = std::abs(std::int64_t(net.l1Biases[b * l1 + j]));
            for (int i = 0; i < a.hidden; ++i)
                sum += std::abs(std::int64_t(net.l1Weights[l1WeightIndex(a, int(b), int(j), i)])) *
                       pairMax;
            if (sum > limit)
                return "L1 unit " + std::to_string(b * l1 + j) +
                       " could overflow 32 bits (bias too large)";
        }
    for (std::size_t b = 0; b < ob; ++b)
        for (std::size_t k = 0; k < l2; ++k) {
            std::int64_t sum = std::abs(std::int64_t(net.l2Biases[b * l2 + k])) * kLayerWeightScale;
            for (std::size_t j = 0; j < l1; ++j)
                sum += std::abs(
                           std::int64_t(net.l2Weights[l2WeightIndex(a, int(b), int(j), int(k))])) *
                       kLayerActivationScale;
            if (sum > limit)
                return "L2 unit " + std::to_string(b * l2 + k) +
                       " could overflow 32 bits (weights too large)";
        }
    if (const long r = firstRowBeyond(net.outWeights.data(), net.outBiases.data(), ob, l2,
                                      kLayerActivationScale, kLayerWeightScale, limit);
        r >= 0)
        return "output of bucket " + std::to_string(r) +
               " could overflow 32 bits (weights too large)";
    return std::nullopt;
}

namespace {

// From units 1/S1 to 1/QH: clamp(h / S1, 0, 1) * QH = clamp(h * den, 0, num) * QH / num with
// S1 = num / den; the clipped product fits 32 bits unsigned.
constexpr std::int64_t kY1Divisor = std::gcd(kLayerActivationScale, kL1SumNumerator);
constexpr std::uint32_t kY1Numerator = std::uint32_t(kLayerActivationScale / kY1Divisor);
constexpr std::uint32_t kY1Denominator = std::uint32_t(kL1SumNumerator / kY1Divisor);
static_assert(kL1SumNumerator * kY1Numerator <= 0xFFFFFFFFll,
              "the first layer's clipped sum times the reduced scale fits 32 bits");
static_assert((kLayerWeightScale & (kLayerWeightScale - 1)) == 0, "the weight scale is 2^k");

// The first layer's activations: clamp(h1 / S1, 0, 1) in 1/QH, at most 32767 (int16). With
// N1 known at compile time (the common shapes) the loop has a fixed trip count and unrolls into
// whole registers. No branch on zero activations anywhere in the tail: the multiplies are
// cheaper than the mispredictions (a branch per first-layer unit was a fifth of the tail's
// profile).
template <int N1>
void activations(const Network& net, const std::int32_t* l1Sums, int bucket, std::int16_t* y1) {
    const std::size_t l1 = N1 ? std::size_t(N1) : std::size_t(net.arch.l1);
    const std::int32_t* b1 = net.l1Biases.data() + std::size_t(bucket) * l1;
    // In 32-bit lanes throughout (twice as many per register as int64): the sum with its bias
    // fits int32 (checkLayerStackBounds), and clamping h1 to [0, ceil(num / den)] before the
    // multiply by den gives clamp(h1 * den, 0, num) once capped at num.
    constexpr std::int32_t kSaturated =
        std::int32_t((kL1SumNumerator + kL1SumDenominator - 1) / kL1SumDenominator);
    for (std::size_t j = 0; j < l1; ++j) {
        const auto h = std::int32_t(std::uint32_t(l1Sums[j]) + std::uint32_t(b1[j]));
        const auto c =
            std::min(std::uint32_t(std::clamp(h, 0, kSaturated)) * std::uint32_t(kL1SumDenominator),
                     std::uint32_t(kL1SumNumerator));
        // Non-negative, so an unsigned division by a constant.
        y1[j] = std::int16_t(std::min<std::uint32_t>(c * kY1Numerator / kY1Denominator, 32767));
    }
}

// y2 = clamp(h2, 0, 1) and the output's dot product, from the second layer's sums.
template <int N2>
int finalOutput(const Network& net, const std::int32_t* h2, int bucket) {
    const Architecture& a = net.arch;
    const std::size_t l2 = N2 ? std::size_t(N2) : std::size_t(a.l2);
    const std::int32_t* b2 = net.l2Biases.data() + std::size_t(bucket) * l2;
    const std::int16_t* w3 = net.outRow(bucket);
    std::int32_t out = net.outBiases[std::size_t(bucket)] * std::int32_t(kLayerWeightScale);
    for (std::size_t k = 0; k < l2; ++k) {
        const std::int32_t h = h2[k] + b2[k] * std::int32_t(kLayerWeightScale);
        // clamp(h, 0, 1) from units 1/(QH * W) to 1/QH: W is a power of two, h >= 0.
        const auto y2 = std::int32_t(
            std::uint32_t(std::clamp<std::int32_t>(h, 0, std::int32_t(kLayerActivationUnit))) /
            std::uint32_t(kLayerWeightScale));
        out += y2 * w3[k];
    }
    return int(std::int64_t(out) * a.scale / kLayerActivationUnit);
}

} // namespace

void layerStackActivations(const Network& net, const std::int32_t* l1Sums, int bucket,
                           std::int16_t* y1) {
    switch (net.arch.l1) {
    case 16: activations<16>(net, l1Sums, bucket, y1); break;
    case 32: activations<32>(net, l1Sums, bucket, y1); break;
    default: activations<0>(net, l1Sums, bucket, y1); break;
    }
}

int layerStackFinalOutput(const Network& net, const std::int32_t* h2, int bucket) {
    switch (net.arch.l2) {
    case 16: return finalOutput<16>(net, h2, bucket);
    case 32: return finalOutput<32>(net, h2, bucket);
    default: return finalOutput<0>(net, h2, bucket);
    }
}

void l2LayerPlain(const Network& net, const std::int16_t* y1, int bucket, std::int32_t* h2) {
    const Architecture& a = net.arch;
    for (int k = 0; k < a.l2; ++k) {
        std::uint32_t sum = 0; // wrapping, as the kernels wrap (the bounds keep it exact)
        for (int j = 0; j < a.l1; ++j)
            sum +=
                std::uint32_t(std::int32_t(y1[j]) * net.l2Weights[l2WeightIndex(a, bucket, j, k)]);
        h2[k] = std::int32_t(sum);
    }
}

int layerStackReference(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                        int bucket) {
    const Architecture& a = net.arch;
    const int half = a.hidden / 2;
    std::vector<std::int64_t> input(std::size_t(a.hidden));
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* acc = side == 0 ? ours : theirs;
        for (int i = 0; i < half; ++i) {
            const std::int64_t u = std::clamp<std::int64_t>(acc[i], 0, a.qa);
            const std::int64_t v = std::clamp<std::int64_t>(acc[i + half], 0, a.qa);
            input[std::size_t(side * half + i)] = (u * v) >> kPairwiseShift;
        }
    }
    std::int32_t sums[kMaxL1];
    for (int j = 0; j < a.l1; ++j) {
        std::uint64_t sum = 0; // wrapped to 32 bits, as the kernels wrap
        for (int i = 0; i < a.hidden; ++i)
            sum += std::uint64_t(input[std::size_t(i)] *
                                 net.l1Weights[l1WeightIndex(a, bucket, j, i)]);
        sums[j] = std::int32_t(std::uint32_t(sum));
    }
    return finishLayerStack<simd::Scalar>(net, sums, bucket);
}

} // namespace axon::nn
