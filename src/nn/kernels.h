// SPDX-License-Identifier: GPL-3.0-or-later
// The inference kernels, written once in the SIMD vocabulary (simd.h) and instantiated per back
// end: accumulator row updates, the SCReLU output layer and the layer stack's first layer.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nn/arch.h"
#include "nn/simd.h"

namespace axon::nn::kernels {

// dst = src + sum(adds) - sum(subs) over `hidden` int16 lanes (wrapping), R registers at a
// time so each row is streamed once per block while the partial sums stay in registers.
template <typename B, int R>
void updateRowsBlocked(std::int16_t* dst, const std::int16_t* src, const std::int16_t* const* adds,
                       int numAdds, const std::int16_t* const* subs, int numSubs, int hidden) {
    constexpr int kBlock = R * B::kLanes16;
    for (int base = 0; base < hidden; base += kBlock) {
        typename B::V16 regs[R];
        for (int r = 0; r < R; ++r) regs[r] = B::load(src + base + r * B::kLanes16);
        for (int a = 0; a < numAdds; ++a)
            for (int r = 0; r < R; ++r)
                regs[r] = B::add16(regs[r], B::load(adds[a] + base + r * B::kLanes16));
        for (int s = 0; s < numSubs; ++s)
            for (int r = 0; r < R; ++r)
                regs[r] = B::sub16(regs[r], B::load(subs[s] + base + r * B::kLanes16));
        for (int r = 0; r < R; ++r) B::store(dst + base + r * B::kLanes16, regs[r]);
    }
}

template <typename B>
void updateRows(std::int16_t* dst, const std::int16_t* src, const std::int16_t* const* adds,
                int numAdds, const std::int16_t* const* subs, int numSubs, int hidden) {
    // Eight registers where the hidden size allows (256, 512, 768, 1024 do); otherwise the
    // block the format guarantees (kHiddenMultiple lanes).
    if (hidden % (8 * B::kLanes16) == 0)
        updateRowsBlocked<B, 8>(dst, src, adds, numAdds, subs, numSubs, hidden);
    else
        updateRowsBlocked<B, kHiddenMultiple / B::kLanes16>(dst, src, adds, numAdds, subs, numSubs,
                                                            hidden);
}

// sum over i of clamp(acc[i], 0, qa)^2 * w[i], modulo 2^32. The product is formed as
// (v * w) * v: v * w fits in int16 because Network::validate bounds |w| * QA, so pmaddwd can
// finish it in 32 bits without widening first.
template <typename B>
std::int32_t screluDot(const std::int16_t* acc, const std::int16_t* w, int hidden,
                       std::int16_t qa) {
    const auto zero = B::splat16(0), top = B::splat16(qa);
    auto sum = B::zero32();
    for (int i = 0; i < hidden; i += B::kLanes16) {
        const auto v = B::min16(B::max16(B::load(acc + i), zero), top);
        sum = B::maddAdd16(sum, B::mullo16(v, B::load(w + i)), v);
    }
    return B::hsum32(sum);
}

// out[i] = (clamp(acc[i], 0, qa) * clamp(acc[i + half], 0, qa)) >> 9 for i < half, as bytes
// (the layer stack's input, layer_stack.h). Formed as mulhi((u << 7), v) = (u * v * 128) >> 16:
// u << 7 stays below 2^15 for qa <= 255, and the high half of the 32-bit product is the shifted
// product on every back end; it is at most 127, so the narrowing to bytes keeps it exactly.
template <typename B>
void pairwiseProducts(const std::int16_t* acc, std::uint8_t* out, int half, std::int16_t qa) {
    static_assert(kPairwiseShift == 9, "the shift below assumes >> 9");
    const auto zero = B::splat16(0), top = B::splat16(qa);
    for (int i = 0; i < half; i += B::kLanes16) {
        const auto u = B::min16(B::max16(B::load(acc + i), zero), top);
        const auto v = B::min16(B::max16(B::load(acc + half + i), zero), top);
        B::storeBytes(out + i, B::mulhi16(B::template shl16<16 - kPairwiseShift>(u), v));
    }
}

// For each byte value, the positions of its set bits in order (the rest zero): the list of
// non-zero quads is written eight candidates at a time, with no branch per quad.
struct BitPositions {
    std::uint16_t at[8];
};
inline constexpr auto kBitPositions = [] {
    std::array<BitPositions, 256> table{};
    for (int byte = 0; byte < 256; ++byte)
        for (int bit = 0, n = 0; bit < 8; ++bit)
            if (byte >> bit & 1) table[std::size_t(byte)].at[n++] = std::uint16_t(bit);
    return table;
}();

// The input quads (4q .. 4q + 3) that are not all zero, as indices q in order: most are zero
// (a pairwise product is zero whenever either half is clipped), and skipping them changes no
// sum. A register's quads (its 32-bit lanes) become a bit mask (nonZero32), each byte of the
// mask eight indices from kBitPositions, of which the count advances past the set ones.
// `quads` is a multiple of 16 (the layered hidden size is a multiple of 64); `out` has room for
// quads + 8 indices. Measured with `axon net bench` on a 256-unit 16 -> 32 stack (AVX-512): the
// scalar loop this replaced, a store and a dependent count per entry, was 43 % of the stack's
// first layer.
template <typename B>
int nonZeroQuads(const std::uint8_t* input, int quads, std::uint16_t* out) {
    constexpr int kQuadsPerRegister = B::kLanes16 / 2;
    constexpr int kBlock = 16;
    static_assert(kBlock % kQuadsPerRegister == 0, "a block of 16 quads is whole registers");
    int count = 0;
    for (int block = 0; block < quads; block += kBlock) {
        std::uint32_t mask = 0;
        for (int r = 0; r < kBlock / kQuadsPerRegister; ++r)
            mask |= B::nonZero32(B::loadBytes(input + 4 * (block + r * kQuadsPerRegister)))
                    << (r * kQuadsPerRegister);
        for (int byte = 0; byte < kBlock / 8; ++byte) {
            const std::uint32_t bits = mask >> (8 * byte) & 0xFF;
            const BitPositions& at = kBitPositions[bits];
            const auto base = std::uint16_t(block + 8 * byte);
            for (int i = 0; i < 8; ++i) out[count + i] = std::uint16_t(at.at[i] + base);
            count += std::popcount(bits);
        }
    }
    return count;
}

// R registers' worth of first-layer units (from register `first`) over the listed input quads:
// the 8-bit weights are interleaved by input quad (layer_stack.h), so one byte dot product
// (vpdpbusd, or pmaddubsw + pmaddwd) of the broadcast quad against a weight register adds all
// four inputs' terms to a register of units, with no horizontal sum. S independent sets of sums
// hide the multiply-add latency.
template <typename B, int R>
void l1Block(const std::uint8_t* input, const std::int8_t* w, const std::uint16_t* quads, int count,
             int rowBytes, int first, std::int32_t* sums) {
    constexpr int S = R <= 2 ? 4 : R <= 4 ? 2 : 1;
    constexpr int kRegisterBytes = 2 * B::kLanes16;
    typename B::V32 acc[S][R];
    for (int k = 0; k < S; ++k)
        for (int r = 0; r < R; ++r) acc[k][r] = B::zero32();
    const std::int8_t* base = w + std::size_t(first) * kRegisterBytes;
    auto step = [&](int k, int q) {
        std::int32_t quad;
        std::memcpy(&quad, input + 4 * q, sizeof quad);
        const auto x = B::splat32(quad);
        const std::int8_t* row = base + std::size_t(q) * std::size_t(rowBytes);
        for (int r = 0; r < R; ++r)
            acc[k][r] = B::dotBytesAdd(acc[k][r], x, B::loadBytes(row + r * kRegisterBytes));
    };
    int n = 0;
    for (; n + S <= count; n += S)
        for (int k = 0; k < S; ++k) step(k, quads[n + k]);
    // The remainder into the first set: every index into acc is a constant, so the sets stay
    // in registers (a variable index kept them in memory, a store and a reload per step).
    for (; n < count; ++n) step(0, quads[n]);
    for (int r = 0; r < R; ++r) {
        for (int k = 1; k < S; ++k) acc[0][r] = B::add32(acc[0][r], acc[k][r]);
        B::store32(sums + (first + r) * (B::kLanes16 / 2), acc[0][r]);
    }
}

// sums[j] = sum over i < n of input[i] * (unit j's weight of input i), for l1 units, modulo
// 2^32; n is a multiple of 64 and 4 * l1 bytes are whole registers of every back end.
template <typename B>
void l1Layer(const std::uint8_t* input, const std::int8_t* w, int n, int l1, std::int32_t* sums) {
    const int rowBytes = 4 * l1, registers = rowBytes / (2 * B::kLanes16);
    std::uint16_t quads[kMaxHidden / 4 + 8];
    const int count = nonZeroQuads<B>(input, n / 4, quads);
    for (int first = 0; first < registers; first += 8) {
        switch (registers - first) {
        case 1: l1Block<B, 1>(input, w, quads, count, rowBytes, first, sums); break;
        case 2: l1Block<B, 2>(input, w, quads, count, rowBytes, first, sums); break;
        case 3: l1Block<B, 3>(input, w, quads, count, rowBytes, first, sums); break;
        case 4: l1Block<B, 4>(input, w, quads, count, rowBytes, first, sums); break;
        case 5: l1Block<B, 5>(input, w, quads, count, rowBytes, first, sums); break;
        case 6: l1Block<B, 6>(input, w, quads, count, rowBytes, first, sums); break;
        case 7: l1Block<B, 7>(input, w, quads, count, rowBytes, first, sums); break;
        default: l1Block<B, 8>(input, w, quads, count, rowBytes, first, sums); break;
        }
    }
}

// The layer stack's second layer, R registers of outputs from register `first` on: for each
// pair of first-layer activations (y1 int16, 0..32767) broadcast as one 32-bit lane, one
// adjacent-pair product sum (pmaddwd, vpdpwssd with VNNI) against the pair's interleaved
// weights adds both inputs' terms to every output at once. w holds, per input pair p and output
// k, the weights of inputs 2p and 2p + 1 side by side (l2WeightIndex in layer_stack.h). Each
// pair sum is below 2 * 32767 * 32768 < 2^31, and the network's bounds keep the total in int32.
// With few registers of outputs the sums are split over S chains (pairs p mod S), added at the
// end: one chain of l1 / 2 dependent vpdpwssd (about 5 cycles each) was most of the layer.
// Every S takes the same sums modulo 2^32, so the result does not depend on it.
static_assert(kL1Multiple % 8 == 0, "l2Block's chains take whole groups of four input pairs");
template <typename B, int R>
void l2Block(const std::int16_t* y1, const std::int16_t* w, int l1, int l2, int first,
             std::int32_t* h2) {
    constexpr int kLanes32 = B::kLanes16 / 2;
    constexpr int S = R <= 2 ? 4 : R <= 4 ? 2 : 1; // divides l1 / 2, a multiple of 8
    typename B::V32 acc[S][R];
    for (int c = 0; c < S; ++c)
        for (int r = 0; r < R; ++r) acc[c][r] = B::zero32();
    for (int p0 = 0; p0 < l1 / 2; p0 += S)
        for (int c = 0; c < S; ++c) {
            const int p = p0 + c;
            const auto pair = std::int32_t(std::uint32_t(std::uint16_t(y1[2 * p])) |
                                           std::uint32_t(std::uint16_t(y1[2 * p + 1])) << 16);
            const typename B::V16 x = B::splat32(pair);
            const std::int16_t* row = w + std::size_t(p) * std::size_t(l2) * 2;
            for (int r = 0; r < R; ++r)
                acc[c][r] = B::maddAdd16(acc[c][r], x, B::load(row + (first + r) * B::kLanes16));
        }
    for (int r = 0; r < R; ++r) {
        typename B::V32 sum = acc[0][r];
        for (int c = 1; c < S; ++c) sum = B::add32(sum, acc[c][r]);
        B::store32(h2 + (first + r) * kLanes32, sum);
    }
}

// h2[k] = sum_j y1[j] * w2(j, k) for l2 outputs, l2 a multiple of B's 32-bit lanes.
template <typename B>
void l2Layer(const std::int16_t* y1, const std::int16_t* w, int l1, int l2, std::int32_t* h2) {
    const int registers = l2 / (B::kLanes16 / 2);
    for (int first = 0; first < registers; first += 8) {
        switch (registers - first) {
        case 1: l2Block<B, 1>(y1, w, l1, l2, first, h2); break;
        case 2: l2Block<B, 2>(y1, w, l1, l2, first, h2); break;
        case 3: l2Block<B, 3>(y1, w, l1, l2, first, h2); break;
        case 4: l2Block<B, 4>(y1, w, l1, l2, first, h2); break;
        case 5: l2Block<B, 5>(y1, w, l1, l2, first, h2); break;
        case 6: l2Block<B, 6>(y1, w, l1, l2, first, h2); break;
        case 7: l2Block<B, 7>(y1, w, l1, l2, first, h2); break;
        default: l2Block<B, 8>(y1, w, l1, l2, first, h2); break;
        }
    }
}

// The output in centipawns from the activation sum (units 1/(QA*QA*QB)) and the bucket's bias
// (units 1/(QA*QB)); divisions truncate toward zero.
inline int finishOutput(const Architecture& a, std::int32_t sum, std::int32_t bias) {
    const std::int64_t x = std::int64_t(sum) / a.qa + bias;
    return int(x * a.scale / (std::int64_t(a.qa) * a.qb));
}

} // namespace axon::nn::kernels
