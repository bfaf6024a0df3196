// SPDX-License-Identifier: GPL-3.0-or-later
// Eight floats as one value for the convolution's inner loop (the GCC/Clang vector
// extension: AVX registers on x86, NEON pairs on ARM, plain scalar code where there is no
// SIMD, so no per-ISA back end is needed). Accumulators held as such values stay in registers,
// where a float array of the same size was kept on the stack by the compiler.
#pragma once

#include <cstring>

namespace axon::nn {

constexpr int kLanes = 8;
using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));

inline Lanes broadcast(float x) { return Lanes{} + x; }
inline Lanes loadLanes(const float* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void storeLanes(float* p, Lanes v) { std::memcpy(p, &v, sizeof v); }

} // namespace axon::nn
