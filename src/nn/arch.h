// SPDX-License-Identifier: GPL-3.0-or-later
// The one description of the network: its shape, options and quantisation, and how a
// (perspective, piece, square) becomes an input feature. The file format, the inference and a
// future trainer all index features through this file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "chess/types.h"

namespace axon::nn {

// Inputs per king bucket: 2 colours (own, theirs) x 6 piece types x 64 squares.
constexpr int kFeaturesPerBucket = 2 * chess::kNumPieceTypes * chess::kNumSquares;

// Limits the loader enforces. The hidden size must be a multiple of the widest SIMD register
// in int16 lanes (AVX-512: 32), so no back end needs a tail loop.
constexpr int kHiddenMultiple = 32;
constexpr int kMaxHidden = 4096;
constexpr int kMaxInputBuckets = chess::kNumSquares;
constexpr int kMaxOutputBuckets = 32;
// The pieces the material output buckets divide between: a legal game has at most this many.
constexpr int kMaxMaterialPieces = 32;

// The layer stack (hidden layers after the accumulator, docs/nnue-format.md, version 3). Its
// first layer reads the pairwise products of each perspective's two accumulator halves, so the
// hidden size must split into halves of whole AVX-512 registers.
constexpr int kLayeredHiddenMultiple = 64;
// 4 x L1 int8 weights per input quad fill whole AVX-512 registers (kernels::l1Layer).
constexpr int kL1Multiple = 16;
constexpr int kMaxL1 = 128;
constexpr int kMaxL2 = 128;
// Fixed quantisation of the stack: the first layer's weights are int8 in units of
// 1/kL1WeightScale (so at most 127/64 = 1.98, the trainer's clip), the later layers' int16 in
// 1/kLayerWeightScale; the pairwise product (clamp(a, 0, QA) * clamp(b, 0, QA)) >>
// kPairwiseShift, so one product fits in 7 bits at QA = 255 and a byte product pair summed in
// 16 bits (pmaddubsw) never saturates: 2 * 127 * 128 < 2^15.
constexpr int kL1WeightScale = 64;
constexpr int kLayerWeightScale = 1024;
constexpr int kLayeredQa = 255;
constexpr int kPairwiseShift = 9;

enum class Activation : std::uint8_t {
    // Clipped squared ReLU: clamp(x, 0, QA)^2.
    SCReLU = 0,
};

struct Architecture {
    int hidden = 256;
    Activation activation = Activation::SCReLU;
    // Mirror each perspective's inputs left-right when its king stands on files e-h, so the
    // network only ever sees its own king on files a-d.
    bool mirror = false;
    int inputBuckets = 1;
    // Input bucket of each king square, as seen from the perspective (ranks flipped for Black,
    // before any mirroring), values below inputBuckets.
    std::array<std::uint8_t, chess::kNumSquares> bucketMap{};
    // Output buckets by material: bucket = (pieces on the board - 2) / ceil(32 / outputBuckets).
    int outputBuckets = 1;
    // Quantisation: the accumulator is in units of 1/QA, output weights in 1/QB, and the result
    // is multiplied by `scale` to give centipawns.
    int qa = 255;
    int qb = 64;
    int scale = 400;
    // The layer stack, per output bucket: hidden (pairwise products of both perspectives) ->
    // l1 -> l2 -> 1, SCReLU between layers. l1 = 0: none, the output layer reads the
    // accumulators directly (format version 1).
    int l1 = 0;
    int l2 = 0;

    bool operator==(const Architecture&) const = default;

    bool layered() const { return l1 > 0; }
    std::size_t inputCount() const { return std::size_t(inputBuckets) * kFeaturesPerBucket; }
    std::size_t ftWeightCount() const { return inputCount() * std::size_t(hidden); }
    // Layered: l2 weights per bucket; otherwise 2 x hidden (both accumulators).
    std::size_t outWeightCount() const {
        return std::size_t(outputBuckets) * std::size_t(layered() ? l2 : 2 * hidden);
    }
    std::size_t l1WeightCount() const {
        return std::size_t(outputBuckets) * std::size_t(l1) * std::size_t(hidden);
    }
    std::size_t l1BiasCount() const { return std::size_t(outputBuckets) * std::size_t(l1); }
    std::size_t l2WeightCount() const {
        return std::size_t(outputBuckets) * std::size_t(l2) * std::size_t(l1);
    }
    std::size_t l2BiasCount() const { return std::size_t(outputBuckets) * std::size_t(l2); }
};

// How one perspective sees the board given where its own king stands: which bucket, and the
// XOR applied to every square (56 flips ranks for Black, 7 mirrors files).
struct Orientation {
    int bucket = 0;
    int squareXor = 0;
    bool operator==(const Orientation&) const = default;
};

inline Orientation orientation(const Architecture& arch, chess::Color perspective,
                               chess::Square ownKing) {
    const int vertical = perspective == chess::Black ? 56 : 0;
    const int relativeKing = ownKing ^ vertical;
    const int horizontal = arch.mirror && (relativeKing & 7) >= 4 ? 7 : 0;
    return {arch.bucketMap[relativeKing], vertical ^ horizontal};
}

// The input feature of piece p on square s, for `perspective` oriented by `o`.
inline int featureIndex(const Orientation& o, chess::Color perspective, chess::Piece p,
                        chess::Square s) {
    const int side = chess::colorOf(p) == perspective ? 0 : 1;
    return o.bucket * kFeaturesPerBucket +
           (side * chess::kNumPieceTypes + chess::typeOf(p)) * chess::kNumSquares +
           (s ^ o.squareXor);
}

inline int outputBucket(const Architecture& arch, int pieceCount) {
    const int divisor = (kMaxMaterialPieces + arch.outputBuckets - 1) / arch.outputBuckets;
    const int bucket = (pieceCount - 2) / divisor;
    return bucket < 0 ? 0 : bucket >= arch.outputBuckets ? arch.outputBuckets - 1 : bucket;
}

} // namespace axon::nn

namespace axon::nn {

// A king bucket map splitting the squares into `buckets` runs of consecutive squares (a1..h8),
// for tools and tests that need some map; trained networks bring their own.
inline std::array<std::uint8_t, chess::kNumSquares> evenBucketMap(int buckets) {
    std::array<std::uint8_t, chess::kNumSquares> map{};
    for (int s = 0; s < chess::kNumSquares; ++s)
        map[s] = std::uint8_t(s * buckets / chess::kNumSquares);
    return map;
}

} // namespace axon::nn
