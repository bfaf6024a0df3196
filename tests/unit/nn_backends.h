// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD back ends this build compiled, as a GoogleTest type list for typed tests that hold
// each of them to a reference (AVX-512, AVX2 and SSE4.1 all at once on an AVX-512 machine
// with -march=native; the scalar one always).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "nn/simd.h"

namespace axon::test {

using CompiledBackends = ::testing::Types<
#if defined(AXON_NN_HAS_AVX512)
    nn::simd::Avx512,
#endif
#if defined(AXON_NN_HAS_AVX2)
    nn::simd::Avx2,
#endif
#if defined(AXON_NN_HAS_SSE41)
    nn::simd::Sse41,
#endif
#if defined(AXON_NN_HAS_NEON)
    nn::simd::Neon,
#endif
#if defined(AXON_NN_HAS_SIMD128)
    nn::simd::Simd128,
#endif
    nn::simd::Scalar>;

// Test names per back end: "avx512", "scalar", ...
struct BackendName {
    template <typename B>
    static std::string GetName(int) {
        return B::kName;
    }
};

} // namespace axon::test
