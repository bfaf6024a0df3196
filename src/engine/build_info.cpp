// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/build_info.h"

#include <cinttypes>
#include <cstdio>

#include "nn/embedded_net.h"
#include "nn/network_file.h"

// The build passes the version and commit: CMake and the Makefile from the VERSION file and git.
#ifndef AXON_VERSION
#define AXON_VERSION "unknown"
#endif
#if __has_include("axon_build_commit.h")
#include "axon_build_commit.h" // generated at build time: #define AXON_COMMIT "..."
#endif
#ifndef AXON_COMMIT
#define AXON_COMMIT "unknown"
#endif

namespace axon::engine {

std::string version() { return AXON_VERSION; }

std::string buildCommit() { return AXON_COMMIT; }

std::string instructionSet() {
    // Named by the highest x86-64 micro-architecture level whose features the compiler was
    // allowed to use, which is what a release binary's name says.
#if defined(__x86_64__) || defined(_M_X64)
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512DQ__)
    std::string s = "x86-64-v4 (AVX-512";
#elif defined(__AVX2__) && defined(__BMI2__) && defined(__FMA__)
    std::string s = "x86-64-v3 (AVX2";
#elif defined(__SSE4_2__) && defined(__POPCNT__)
    std::string s = "x86-64-v2 (SSE4.2, POPCNT";
#else
    std::string s = "x86-64 (SSE2";
#endif
#if defined(__BMI2__) && !defined(AXON_NO_PEXT)
    s += "; PEXT sliders)";
#else
    s += "; magic sliders)";
#endif
    return s;
#elif defined(__aarch64__)
#if defined(__ARM_NEON)
    return "aarch64 (NEON)";
#else
    return "aarch64";
#endif
#elif defined(__wasm__)
#if defined(__wasm_simd128__)
    return "wasm32 (SIMD128)";
#else
    return "wasm32";
#endif
#else
    return "generic";
#endif
}

std::string embeddedNetworkHash() {
    const auto bytes = nn::embeddedNetworkBytes();
    if (bytes.empty()) return "none";
    const auto header = nn::readNetHeader(bytes);
    if (!header) return "invalid";
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, header->hash);
    return hex;
}

std::string versionText() {
    return "Axon " + version() + "\ncommit " + buildCommit() + "\ninstruction set " +
           instructionSet() + "\nnetwork " + embeddedNetworkHash() + "\n";
}

} // namespace axon::engine
