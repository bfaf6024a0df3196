// SPDX-License-Identifier: GPL-3.0-or-later
// The inference kernels, written once in the SIMD vocabulary (simd.h) and instantiated per back
// end: accumulator row updates and the SCReLU output layer.
#pragma once

#include <cstdint>

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
        sum = B::add32(sum, B::madd16(B::mullo16(v, B::load(w + i)), v));
    }
    return B::hsum32(sum);
}

// out[i] = (clamp(acc[i], 0, qa) * clamp(acc[i + half], 0, qa)) >> 9 for i < half (the layer
// stack's input, layer_stack.h). Formed as mulhi((u << 7), v) = (u * v * 128) >> 16: u << 7
// stays below 2^15 for qa <= 255, and the high half of the 32-bit product is the shifted
// product on every back end.
template <typename B>
void pairwiseProducts(const std::int16_t* acc, std::int16_t* out, int half, std::int16_t qa) {
    static_assert(kPairwiseShift == 9, "the shift below assumes >> 9");
    const auto zero = B::splat16(0), top = B::splat16(qa);
    for (int i = 0; i < half; i += B::kLanes16) {
        const auto u = B::min16(B::max16(B::load(acc + i), zero), top);
        const auto v = B::min16(B::max16(B::load(acc + half + i), zero), top);
        B::store(out + i, B::mulhi16(B::template shl16<16 - kPairwiseShift>(u), v));
    }
}

// sum over i < n of a[i] * b[i], modulo 2^32; n is a multiple of the lane count.
template <typename B>
std::int32_t dot16(const std::int16_t* a, const std::int16_t* b, int n) {
    auto sum = B::zero32();
    for (int i = 0; i < n; i += B::kLanes16)
        sum = B::add32(sum, B::madd16(B::load(a + i), B::load(b + i)));
    return B::hsum32(sum);
}

// The output in centipawns from the activation sum (units 1/(QA*QA*QB)) and the bucket's bias
// (units 1/(QA*QB)); divisions truncate toward zero.
inline int finishOutput(const Architecture& a, std::int32_t sum, std::int32_t bias) {
    const std::int64_t x = std::int64_t(sum) / a.qa + bias;
    return int(x * a.scale / (std::int64_t(a.qa) * a.qb));
}

} // namespace axon::nn::kernels
