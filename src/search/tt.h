// SPDX-License-Identifier: GPL-3.0-or-later
// The transposition table: clusters of four entries, depth/age replacement, shared lock-free by
// all search threads (each entry is two relaxed atomics checked against each other).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "chess/types.h"

namespace axon::search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTData {
    chess::Move move;
    int score = 0;
    int eval = 0;
    int depth = 0;
    Bound bound = Bound::None;
    bool wasPv = false;
};

class TranspositionTable {
  public:
    TranspositionTable();
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Reallocates (and clears) to `megabytes` MiB.
    void resize(std::size_t megabytes);
    void clear();
    // Threads that clear() may use: the search's, which are idle while it runs.
    void setClearThreads(int threads) { m_clearThreads = threads; }
    // Called once per search so older entries become preferred victims.
    void newSearch() { m_generation = std::uint8_t((m_generation + 1) & kGenerationMask); }

    // Fills `out` and returns true when the key is present.
    bool probe(chess::Key key, TTData& out) const;
    void store(chess::Key key, chess::Move move, int score, int eval, int depth, Bound bound,
               bool wasPv);
    void prefetch(chess::Key key) const;
    // Permille of a sample of entries written in the current search (UCI hashfull).
    int hashfull() const;
    std::size_t sizeMegabytes() const { return m_megabytes; }

  private:
    struct Entry {
        std::atomic<std::uint64_t> keyXorData;
        std::atomic<std::uint64_t> data;
    };
    static constexpr int kClusterSize = 4;
    struct alignas(64) Cluster {
        Entry entries[kClusterSize];
    };
    static constexpr std::uint8_t kGenerationMask = 63;

    Cluster& clusterFor(chess::Key key) const;

    Cluster* m_clusters = nullptr;
    std::size_t m_clusterCount = 0;
    std::size_t m_megabytes = 0;
    int m_clearThreads = 1;
    std::uint8_t m_generation = 0;
};

} // namespace axon::search
