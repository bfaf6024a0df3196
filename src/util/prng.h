// SPDX-License-Identifier: GPL-3.0-or-later
// A small, fast, seedable pseudo-random generator (SplitMix64) for tables, tests and datagen.
#pragma once

#include <cstdint>

namespace axon::util {

class Prng {
  public:
    constexpr explicit Prng(std::uint64_t seed) : m_state(seed) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Numbers with few bits set, which make good magic-multiplier candidates.
    constexpr std::uint64_t sparse() { return next() & next() & next(); }
    // Uniform in [0, bound) for bound > 0 (tiny modulo bias is irrelevant here).
    constexpr std::uint64_t below(std::uint64_t bound) { return next() % bound; }

  private:
    std::uint64_t m_state;
};

} // namespace axon::util
