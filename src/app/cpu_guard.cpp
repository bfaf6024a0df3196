// SPDX-License-Identifier: GPL-3.0-or-later
// A binary compiled for instructions this CPU lacks would die of SIGILL without a word (a
// release's x86-64-v4 build on an older machine). Before anything else runs, this compares the
// features the compiler was allowed to use with the CPU's and, when one is missing, names it and
// the release build to use instead, and exits. Linked into both executables (the full tool and
// the compiler-only engine), not into a library, so the constructor is always kept.
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))

#include <cstdio>
#include <cstdlib>

namespace {

// Every function here is compiled for the baseline instruction set whatever the build's
// -march, so the check cannot itself use what it checks for.
#define AXON_BASELINE __attribute__((target("arch=x86-64")))

// Which features the compiler was allowed to use (its predefined macros).
#ifdef __POPCNT__
constexpr bool kPopcnt = true;
#else
constexpr bool kPopcnt = false;
#endif
#ifdef __SSE4_1__
constexpr bool kSse41 = true;
#else
constexpr bool kSse41 = false;
#endif
#ifdef __SSE4_2__
constexpr bool kSse42 = true;
#else
constexpr bool kSse42 = false;
#endif
#ifdef __AVX__
constexpr bool kAvx = true;
#else
constexpr bool kAvx = false;
#endif
#ifdef __AVX2__
constexpr bool kAvx2 = true;
#else
constexpr bool kAvx2 = false;
#endif
#ifdef __BMI__
constexpr bool kBmi = true;
#else
constexpr bool kBmi = false;
#endif
#ifdef __BMI2__
constexpr bool kBmi2 = true;
#else
constexpr bool kBmi2 = false;
#endif
#ifdef __FMA__
constexpr bool kFma = true;
#else
constexpr bool kFma = false;
#endif
#ifdef __AVX512F__
constexpr bool kAvx512f = true;
#else
constexpr bool kAvx512f = false;
#endif
#ifdef __AVX512BW__
constexpr bool kAvx512bw = true;
#else
constexpr bool kAvx512bw = false;
#endif
#ifdef __AVX512DQ__
constexpr bool kAvx512dq = true;
#else
constexpr bool kAvx512dq = false;
#endif
#ifdef __AVX512VL__
constexpr bool kAvx512vl = true;
#else
constexpr bool kAvx512vl = false;
#endif
#ifdef __AVX512VNNI__
constexpr bool kAvx512vnni = true;
#else
constexpr bool kAvx512vnni = false;
#endif

// The highest release level (docs/releases.md) whose features this CPU has.
AXON_BASELINE const char* levelThatRuns() {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
        return "x86-64-v4";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
        __builtin_cpu_supports("fma"))
        return "x86-64-v3";
    if (__builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt")) return "x86-64-v2";
    return "x86-64";
}

// Priority 101, the first a program may use: before every other static constructor, some of
// which (attack tables, the network) run the build's own instructions.
__attribute__((constructor(101))) AXON_BASELINE void refuseMissingCpuFeatures() {
    __builtin_cpu_init();
    // A plain buffer: std::string's inline code would be compiled for the build's -march.
    char missing[160] = "";
    auto append = [&missing](const char* name) AXON_BASELINE {
        std::size_t at = 0;
        while (missing[at] != 0) ++at;
        missing[at++] = ' ';
        while (*name != 0 && at + 1 < sizeof missing) missing[at++] = *name++;
        missing[at] = 0;
    };
    // In level order; __builtin_cpu_supports takes only a string literal, hence the macro.
#define AXON_REQUIRE(compiledIn, name)                                                             \
    if (compiledIn && !__builtin_cpu_supports(name)) append(name);
    AXON_REQUIRE(kPopcnt, "popcnt")
    AXON_REQUIRE(kSse41, "sse4.1")
    AXON_REQUIRE(kSse42, "sse4.2")
    AXON_REQUIRE(kAvx, "avx")
    AXON_REQUIRE(kAvx2, "avx2")
    AXON_REQUIRE(kBmi, "bmi")
    AXON_REQUIRE(kBmi2, "bmi2")
    AXON_REQUIRE(kFma, "fma")
    AXON_REQUIRE(kAvx512f, "avx512f")
    AXON_REQUIRE(kAvx512bw, "avx512bw")
    AXON_REQUIRE(kAvx512dq, "avx512dq")
    AXON_REQUIRE(kAvx512vl, "avx512vl")
    AXON_REQUIRE(kAvx512vnni, "avx512vnni")
#undef AXON_REQUIRE
    if (missing[0] == 0) return;
    std::fprintf(stderr,
                 "axon: this binary was built for instructions this CPU does not have:%s.\n"
                 "axon: use a build for %s or lower (a release's files named *-%s*), or build "
                 "from source with `make`.\n",
                 missing, levelThatRuns(), levelThatRuns());
    // _Exit: a static binary's exit handlers are not ready this early (std::exit aborted there).
    std::_Exit(1);
}

} // namespace

#endif
