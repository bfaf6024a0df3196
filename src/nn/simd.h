// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD vocabulary the inference kernels are written in: one struct per back end with the
// same operations on 16-bit and 32-bit integer lanes. Every operation wraps modulo 2^16 or 2^32
// the way the hardware does, so every back end gives bit-identical results. The scalar back end
// is always compiled (it is the reference the tests compare the others with, and what the WASM
// build uses until a SIMD128 back end exists); AVX2 where the compiler targets it. SSE4.1,
// AVX-512, NEON and WASM SIMD128 fit as further structs with the same members.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#define AXON_NN_HAS_AVX2 1
#endif

namespace axon::nn::simd {

// Portable back end: 256-bit "registers" as plain arrays, so a kernel walks the same lanes in
// the same order as the AVX2 one.
struct Scalar {
    static constexpr const char* kName = "scalar";
    static constexpr int kLanes16 = 16;
    struct V16 {
        std::int16_t v[kLanes16];
    };
    struct V32 {
        std::int32_t v[kLanes16 / 2];
    };

    static V16 load(const std::int16_t* p) {
        V16 r;
        std::memcpy(r.v, p, sizeof r.v);
        return r;
    }
    static void store(std::int16_t* p, const V16& a) { std::memcpy(p, a.v, sizeof a.v); }
    static V16 splat16(std::int16_t x) {
        V16 r;
        for (auto& e : r.v) e = x;
        return r;
    }
    static V16 add16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = wrap16(int(a.v[i]) + b.v[i]);
        return r;
    }
    static V16 sub16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = wrap16(int(a.v[i]) - b.v[i]);
        return r;
    }
    static V16 max16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
        return r;
    }
    static V16 min16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
        return r;
    }
    // Low 16 bits of each product.
    static V16 mullo16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = wrap16(int(a.v[i]) * b.v[i]);
        return r;
    }
    // Adjacent products summed into 32-bit lanes (pmaddwd).
    static V32 madd16(const V16& a, const V16& b) {
        V32 r;
        for (int i = 0; i < kLanes16 / 2; ++i) {
            const std::uint32_t lo = std::uint32_t(std::int32_t(a.v[2 * i]) * b.v[2 * i]);
            const std::uint32_t hi = std::uint32_t(std::int32_t(a.v[2 * i + 1]) * b.v[2 * i + 1]);
            r.v[i] = std::int32_t(lo + hi);
        }
        return r;
    }
    static V32 zero32() { return V32{}; }
    static V32 add32(const V32& a, const V32& b) {
        V32 r;
        for (int i = 0; i < kLanes16 / 2; ++i)
            r.v[i] = std::int32_t(std::uint32_t(a.v[i]) + std::uint32_t(b.v[i]));
        return r;
    }
    static std::int32_t hsum32(const V32& a) {
        std::uint32_t s = 0;
        for (const auto e : a.v) s += std::uint32_t(e);
        return std::int32_t(s);
    }

  private:
    static std::int16_t wrap16(int x) { return std::int16_t(std::uint16_t(x)); }
};

#if defined(AXON_NN_HAS_AVX2)
struct Avx2 {
    static constexpr const char* kName = "avx2";
    static constexpr int kLanes16 = 16;
    using V16 = __m256i;
    using V32 = __m256i;

    static V16 load(const std::int16_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    }
    static void store(std::int16_t* p, V16 a) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a);
    }
    static V16 splat16(std::int16_t x) { return _mm256_set1_epi16(x); }
    static V16 add16(V16 a, V16 b) { return _mm256_add_epi16(a, b); }
    static V16 sub16(V16 a, V16 b) { return _mm256_sub_epi16(a, b); }
    static V16 max16(V16 a, V16 b) { return _mm256_max_epi16(a, b); }
    static V16 min16(V16 a, V16 b) { return _mm256_min_epi16(a, b); }
    static V16 mullo16(V16 a, V16 b) { return _mm256_mullo_epi16(a, b); }
    static V32 madd16(V16 a, V16 b) { return _mm256_madd_epi16(a, b); }
    static V32 zero32() { return _mm256_setzero_si256(); }
    static V32 add32(V32 a, V32 b) { return _mm256_add_epi32(a, b); }
    static std::int32_t hsum32(V32 a) {
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
        return _mm_cvtsi128_si32(s);
    }
};
using Native = Avx2;
#else
using Native = Scalar;
#endif

} // namespace axon::nn::simd
