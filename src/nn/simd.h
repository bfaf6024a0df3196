// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD vocabulary the inference kernels are written in: one struct per back end with the
// same operations on 16-bit and 32-bit integer lanes. Every operation wraps modulo 2^16 or 2^32
// the way the hardware does, and the kernels only combine lanes in ways every width shares
// (lane-wise sums, adjacent-pair products, a final total modulo 2^32), so every back end gives
// bit-identical results. The scalar back end is always compiled: it is the reference the tests
// hold the others to. The others are compiled where the compiler targets them: AVX-512 (BW),
// AVX2, SSE4.1, NEON and WebAssembly SIMD128; `Native` is the widest.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__AVX512F__) && defined(__AVX512BW__)
#define AXON_NN_HAS_AVX512 1
#endif
#if defined(__AVX2__)
#define AXON_NN_HAS_AVX2 1
#endif
#if defined(__SSE4_1__)
#define AXON_NN_HAS_SSE41 1
#endif
#if defined(AXON_NN_HAS_AVX512) || defined(AXON_NN_HAS_AVX2) || defined(AXON_NN_HAS_SSE41)
#include <immintrin.h>
#endif
#if defined(__ARM_NEON) && defined(__aarch64__)
#define AXON_NN_HAS_NEON 1
#include <arm_neon.h>
#endif
#if defined(__wasm_simd128__)
#define AXON_NN_HAS_SIMD128 1
#include <wasm_simd128.h>
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
    // A register's bytes (the layer stack's 8-bit inputs and weights), in memory order.
    static V16 loadBytes(const void* p) {
        V16 r;
        std::memcpy(r.v, p, sizeof r.v);
        return r;
    }
    // p[i] = lane i, for kLanes16 lanes each in 0..127 (what every back end's narrowing keeps).
    static void storeBytes(std::uint8_t* p, const V16& a) {
        for (int i = 0; i < kLanes16; ++i) p[i] = std::uint8_t(a.v[i]);
    }
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
    // High 16 bits of each 32-bit product (pmulhw).
    static V16 mulhi16(const V16& a, const V16& b) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = std::int16_t((int(a.v[i]) * b.v[i]) >> 16);
        return r;
    }
    // Each lane shifted left by S, the bits above 16 dropped (psllw).
    template <int S>
    static V16 shl16(const V16& a) {
        V16 r;
        for (int i = 0; i < kLanes16; ++i) r.v[i] = wrap16(int(std::uint16_t(a.v[i])) << S);
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
    // acc + madd16(a, b), wrapping (vpdpwssd where VNNI has it: one instruction).
    static V32 maddAdd16(const V32& acc, const V16& a, const V16& b) {
        return add32(acc, madd16(a, b));
    }
    // acc + the four products of each 32-bit lane's bytes, x's unsigned and w's signed
    // (vpdpbusd). x's bytes are below 128, so pmaddubsw's 16-bit pair sums never saturate and
    // a signed reading of x (NEON, WASM) is the same number.
    static V32 dotBytesAdd(const V32& acc, const V16& x, const V16& w) {
        std::uint8_t xb[2 * kLanes16];
        std::int8_t wb[2 * kLanes16];
        std::memcpy(xb, x.v, sizeof xb);
        std::memcpy(wb, w.v, sizeof wb);
        V32 r;
        for (int i = 0; i < kLanes16 / 2; ++i) {
            std::int32_t dot = 0;
            for (int k = 0; k < 4; ++k) dot += std::int32_t(xb[4 * i + k]) * wb[4 * i + k];
            r.v[i] = std::int32_t(std::uint32_t(acc.v[i]) + std::uint32_t(dot));
        }
        return r;
    }
    static V32 zero32() { return V32{}; }
    // Every pair of 16-bit lanes set to the two halves of x (low half first).
    static V16 splat32(std::int32_t x) {
        V16 r;
        for (int i = 0; i < kLanes16; i += 2) std::memcpy(&r.v[i], &x, sizeof x);
        return r;
    }
    static void store32(std::int32_t* p, const V32& a) { std::memcpy(p, a.v, sizeof a.v); }
    // Bit i set when 32-bit lane i (16-bit lanes 2i and 2i + 1) is not zero.
    static std::uint32_t nonZero32(const V16& a) {
        std::uint32_t mask = 0;
        for (int i = 0; i < kLanes16 / 2; ++i)
            mask |= std::uint32_t(a.v[2 * i] != 0 || a.v[2 * i + 1] != 0) << i;
        return mask;
    }
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

#if defined(AXON_NN_HAS_AVX512)
struct Avx512 {
    static constexpr const char* kName = "avx512";
    static constexpr int kLanes16 = 32;
    using V16 = __m512i;
    using V32 = __m512i;

    static V16 load(const std::int16_t* p) { return _mm512_loadu_si512(p); }
    static void store(std::int16_t* p, V16 a) { _mm512_storeu_si512(p, a); }
    static V16 loadBytes(const void* p) { return _mm512_loadu_si512(p); }
    // vpmovwb; the zero-masked form, because GCC 12's unmasked one trips -Wmaybe-uninitialized
    // in its own header.
    static void storeBytes(std::uint8_t* p, V16 a) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                            _mm512_maskz_cvtepi16_epi8(__mmask32(0xFFFFFFFFu), a));
    }
    static V16 splat16(std::int16_t x) { return _mm512_set1_epi16(x); }
    static V16 add16(V16 a, V16 b) { return _mm512_add_epi16(a, b); }
    static V16 sub16(V16 a, V16 b) { return _mm512_sub_epi16(a, b); }
    static V16 max16(V16 a, V16 b) { return _mm512_max_epi16(a, b); }
    static V16 min16(V16 a, V16 b) { return _mm512_min_epi16(a, b); }
    static V16 mullo16(V16 a, V16 b) { return _mm512_mullo_epi16(a, b); }
    static V16 mulhi16(V16 a, V16 b) { return _mm512_mulhi_epi16(a, b); }
    template <int S>
    static V16 shl16(V16 a) {
        return _mm512_slli_epi16(a, S);
    }
    static V32 madd16(V16 a, V16 b) { return _mm512_madd_epi16(a, b); }
    // vpdpwssd sums both products into the accumulator modulo 2^32, as pmaddwd + paddd do.
    static V32 maddAdd16(V32 acc, V16 a, V16 b) {
#if defined(__AVX512VNNI__)
        return _mm512_dpwssd_epi32(acc, a, b);
#else
        return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
#endif
    }
    static V32 dotBytesAdd(V32 acc, V16 x, V16 w) {
#if defined(__AVX512VNNI__)
        return _mm512_dpbusd_epi32(acc, x, w);
#else
        return _mm512_add_epi32(
            acc, _mm512_madd_epi16(_mm512_maddubs_epi16(x, w), _mm512_set1_epi16(1)));
#endif
    }
    static V32 zero32() { return _mm512_setzero_si512(); }
    static V16 splat32(std::int32_t x) { return _mm512_set1_epi32(x); }
    static void store32(std::int32_t* p, V32 a) { _mm512_storeu_si512(p, a); }
    static std::uint32_t nonZero32(V16 a) { return _mm512_test_epi32_mask(a, a); }
    static V32 add32(V32 a, V32 b) { return _mm512_add_epi32(a, b); }
    // Through memory: once per evaluation, and GCC 12's reduction intrinsics trip
    // -Wmaybe-uninitialized in its own headers.
    static std::int32_t hsum32(V32 a) {
        alignas(64) std::uint32_t lanes[16];
        _mm512_store_si512(lanes, a);
        std::uint32_t s = 0;
        for (const std::uint32_t x : lanes) s += x;
        return std::int32_t(s);
    }
};
#endif

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
    static V16 loadBytes(const void* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    }
    // packuswb works within 128-bit halves: lanes 0-7 land in bytes 0-7, lanes 8-15 in 16-23.
    static void storeBytes(std::uint8_t* p, V16 a) {
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, a), 0x08);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(packed));
    }
    static V16 splat16(std::int16_t x) { return _mm256_set1_epi16(x); }
    static V16 add16(V16 a, V16 b) { return _mm256_add_epi16(a, b); }
    static V16 sub16(V16 a, V16 b) { return _mm256_sub_epi16(a, b); }
    static V16 max16(V16 a, V16 b) { return _mm256_max_epi16(a, b); }
    static V16 min16(V16 a, V16 b) { return _mm256_min_epi16(a, b); }
    static V16 mullo16(V16 a, V16 b) { return _mm256_mullo_epi16(a, b); }
    static V16 mulhi16(V16 a, V16 b) { return _mm256_mulhi_epi16(a, b); }
    template <int S>
    static V16 shl16(V16 a) {
        return _mm256_slli_epi16(a, S);
    }
    static V32 madd16(V16 a, V16 b) { return _mm256_madd_epi16(a, b); }
    static V32 maddAdd16(V32 acc, V16 a, V16 b) {
#if defined(__AVXVNNI__)
        return _mm256_dpwssd_avx_epi32(acc, a, b);
#elif defined(__AVX512VNNI__) && defined(__AVX512VL__)
        return _mm256_dpwssd_epi32(acc, a, b);
#else
        return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
    }
    static V32 dotBytesAdd(V32 acc, V16 x, V16 w) {
#if defined(__AVXVNNI__)
        return _mm256_dpbusd_avx_epi32(acc, x, w);
#elif defined(__AVX512VNNI__) && defined(__AVX512VL__)
        return _mm256_dpbusd_epi32(acc, x, w);
#else
        return _mm256_add_epi32(
            acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#endif
    }
    static V32 zero32() { return _mm256_setzero_si256(); }
    static V16 splat32(std::int32_t x) { return _mm256_set1_epi32(x); }
    static void store32(std::int32_t* p, V32 a) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a);
    }
    static std::uint32_t nonZero32(V16 a) {
        const __m256i zero = _mm256_cmpeq_epi32(a, _mm256_setzero_si256());
        return ~std::uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(zero))) & 0xFFu;
    }
    static V32 add32(V32 a, V32 b) { return _mm256_add_epi32(a, b); }
    static std::int32_t hsum32(V32 a) {
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
        return _mm_cvtsi128_si32(s);
    }
};
#endif

#if defined(AXON_NN_HAS_SSE41)
struct Sse41 {
    static constexpr const char* kName = "sse41";
    static constexpr int kLanes16 = 8;
    using V16 = __m128i;
    using V32 = __m128i;

    static V16 load(const std::int16_t* p) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    }
    static void store(std::int16_t* p, V16 a) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a);
    }
    static V16 loadBytes(const void* p) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    }
    static void storeBytes(std::uint8_t* p, V16 a) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(a, a));
    }
    static V16 splat16(std::int16_t x) { return _mm_set1_epi16(x); }
    static V16 add16(V16 a, V16 b) { return _mm_add_epi16(a, b); }
    static V16 sub16(V16 a, V16 b) { return _mm_sub_epi16(a, b); }
    static V16 max16(V16 a, V16 b) { return _mm_max_epi16(a, b); }
    static V16 min16(V16 a, V16 b) { return _mm_min_epi16(a, b); }
    static V16 mullo16(V16 a, V16 b) { return _mm_mullo_epi16(a, b); }
    static V16 mulhi16(V16 a, V16 b) { return _mm_mulhi_epi16(a, b); }
    template <int S>
    static V16 shl16(V16 a) {
        return _mm_slli_epi16(a, S);
    }
    static V32 madd16(V16 a, V16 b) { return _mm_madd_epi16(a, b); }
    static V32 maddAdd16(V32 acc, V16 a, V16 b) { return _mm_add_epi32(acc, _mm_madd_epi16(a, b)); }
    static V32 dotBytesAdd(V32 acc, V16 x, V16 w) {
        return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(x, w), _mm_set1_epi16(1)));
    }
    static V32 zero32() { return _mm_setzero_si128(); }
    static V16 splat32(std::int32_t x) { return _mm_set1_epi32(x); }
    static void store32(std::int32_t* p, V32 a) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a);
    }
    static std::uint32_t nonZero32(V16 a) {
        const __m128i zero = _mm_cmpeq_epi32(a, _mm_setzero_si128());
        return ~std::uint32_t(_mm_movemask_ps(_mm_castsi128_ps(zero))) & 0xFu;
    }
    static V32 add32(V32 a, V32 b) { return _mm_add_epi32(a, b); }
    static std::int32_t hsum32(V32 a) {
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0x4E));
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0xB1));
        return _mm_cvtsi128_si32(a);
    }
};
#endif

#if defined(AXON_NN_HAS_NEON)
struct Neon {
    static constexpr const char* kName = "neon";
    static constexpr int kLanes16 = 8;
    using V16 = int16x8_t;
    using V32 = int32x4_t;

    static V16 load(const std::int16_t* p) { return vld1q_s16(p); }
    static void store(std::int16_t* p, V16 a) { vst1q_s16(p, a); }
    static V16 loadBytes(const void* p) {
        return vreinterpretq_s16_u8(vld1q_u8(static_cast<const std::uint8_t*>(p)));
    }
    static void storeBytes(std::uint8_t* p, V16 a) { vst1_u8(p, vqmovun_s16(a)); }
    static V16 splat16(std::int16_t x) { return vdupq_n_s16(x); }
    static V16 add16(V16 a, V16 b) { return vaddq_s16(a, b); }
    static V16 sub16(V16 a, V16 b) { return vsubq_s16(a, b); }
    static V16 max16(V16 a, V16 b) { return vmaxq_s16(a, b); }
    static V16 min16(V16 a, V16 b) { return vminq_s16(a, b); }
    static V16 mullo16(V16 a, V16 b) { return vmulq_s16(a, b); }
    // Widening products, arithmetic shift right by 16 and narrowing: pmulhw.
    static V16 mulhi16(V16 a, V16 b) {
        return vcombine_s16(vshrn_n_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), 16),
                            vshrn_n_s32(vmull_high_s16(a, b), 16));
    }
    template <int S>
    static V16 shl16(V16 a) {
        return vshlq_n_s16(a, S);
    }
    // pmaddwd: widening products of lanes 0-3 and 4-7, then adjacent pairs added (wrapping).
    static V32 madd16(V16 a, V16 b) {
        return vpaddq_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), vmull_high_s16(a, b));
    }
    static V32 maddAdd16(V32 acc, V16 a, V16 b) { return vaddq_s32(acc, madd16(a, b)); }
    // x's bytes are below 128, so as signed bytes they are the same numbers: sdot where the
    // core has it, else widening products of bytes 0-7 and 8-15, adjacent pairs added twice.
    static V32 dotBytesAdd(V32 acc, V16 x, V16 w) {
        const int8x16_t xs = vreinterpretq_s8_s16(x), ws = vreinterpretq_s8_s16(w);
#if defined(__ARM_FEATURE_DOTPROD)
        return vdotq_s32(acc, xs, ws);
#else
        const int32x4_t lo = vpaddlq_s16(vmull_s8(vget_low_s8(xs), vget_low_s8(ws)));
        const int32x4_t hi = vpaddlq_s16(vmull_high_s8(xs, ws));
        return vaddq_s32(acc, vpaddq_s32(lo, hi));
#endif
    }
    static V32 zero32() { return vdupq_n_s32(0); }
    static V16 splat32(std::int32_t x) { return vreinterpretq_s16_s32(vdupq_n_s32(x)); }
    static void store32(std::int32_t* p, V32 a) { vst1q_s32(p, a); }
    // No movemask on NEON: lanes that test non-zero keep their bit of {1, 2, 4, 8}, summed.
    static std::uint32_t nonZero32(V16 a) {
        static constexpr std::uint32_t kBits[4] = {1, 2, 4, 8};
        const uint32x4_t set = vtstq_u32(vreinterpretq_u32_s16(a), vreinterpretq_u32_s16(a));
        return vaddvq_u32(vandq_u32(set, vld1q_u32(kBits)));
    }
    static V32 add32(V32 a, V32 b) { return vaddq_s32(a, b); }
    static std::int32_t hsum32(V32 a) { return vaddvq_s32(a); }
};
#endif

#if defined(AXON_NN_HAS_SIMD128)
struct Simd128 {
    static constexpr const char* kName = "simd128";
    static constexpr int kLanes16 = 8;
    using V16 = v128_t;
    using V32 = v128_t;

    static V16 load(const std::int16_t* p) { return wasm_v128_load(p); }
    static void store(std::int16_t* p, V16 a) { wasm_v128_store(p, a); }
    static V16 loadBytes(const void* p) { return wasm_v128_load(p); }
    static void storeBytes(std::uint8_t* p, V16 a) {
        wasm_v128_store64_lane(p, wasm_u8x16_narrow_i16x8(a, a), 0);
    }
    static V16 splat16(std::int16_t x) { return wasm_i16x8_splat(x); }
    static V16 add16(V16 a, V16 b) { return wasm_i16x8_add(a, b); }
    static V16 sub16(V16 a, V16 b) { return wasm_i16x8_sub(a, b); }
    static V16 max16(V16 a, V16 b) { return wasm_i16x8_max(a, b); }
    static V16 min16(V16 a, V16 b) { return wasm_i16x8_min(a, b); }
    static V16 mullo16(V16 a, V16 b) { return wasm_i16x8_mul(a, b); }
    // Widening products shifted right by 16: each fits int16 again, so the saturating narrow
    // is exact.
    static V16 mulhi16(V16 a, V16 b) {
        return wasm_i16x8_narrow_i32x4(wasm_i32x4_shr(wasm_i32x4_extmul_low_i16x8(a, b), 16),
                                       wasm_i32x4_shr(wasm_i32x4_extmul_high_i16x8(a, b), 16));
    }
    template <int S>
    static V16 shl16(V16 a) {
        return wasm_i16x8_shl(a, S);
    }
    static V32 madd16(V16 a, V16 b) { return wasm_i32x4_dot_i16x8(a, b); }
    static V32 maddAdd16(V32 acc, V16 a, V16 b) { return wasm_i32x4_add(acc, madd16(a, b)); }
    // Widening byte products (x below 128: signed is the same number), pairs summed into
    // 32 bits, then the two pair sums of each unit: even lanes plus odd lanes.
    static V32 dotBytesAdd(V32 acc, V16 x, V16 w) {
        const v128_t lo = wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_low_i8x16(x, w));
        const v128_t hi = wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_high_i8x16(x, w));
        return wasm_i32x4_add(acc, wasm_i32x4_add(wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6),
                                                  wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7)));
    }
    static V32 zero32() { return wasm_i32x4_splat(0); }
    static V16 splat32(std::int32_t x) { return wasm_i32x4_splat(x); }
    static void store32(std::int32_t* p, V32 a) { wasm_v128_store(p, a); }
    static std::uint32_t nonZero32(V16 a) {
        return wasm_i32x4_bitmask(wasm_i32x4_ne(a, wasm_i32x4_splat(0)));
    }
    static V32 add32(V32 a, V32 b) { return wasm_i32x4_add(a, b); }
    static std::int32_t hsum32(V32 a) {
        const std::uint32_t s = std::uint32_t(wasm_i32x4_extract_lane(a, 0)) +
                                std::uint32_t(wasm_i32x4_extract_lane(a, 1)) +
                                std::uint32_t(wasm_i32x4_extract_lane(a, 2)) +
                                std::uint32_t(wasm_i32x4_extract_lane(a, 3));
        return std::int32_t(s);
    }
};
#endif

#if defined(AXON_NN_HAS_AVX512)
using Native = Avx512;
#elif defined(AXON_NN_HAS_AVX2)
using Native = Avx2;
#elif defined(AXON_NN_HAS_SSE41)
using Native = Sse41;
#elif defined(AXON_NN_HAS_NEON)
using Native = Neon;
#elif defined(AXON_NN_HAS_SIMD128)
using Native = Simd128;
#else
using Native = Scalar;
#endif

} // namespace axon::nn::simd
