// SPDX-License-Identifier: GPL-3.0-or-later
// Transposition table storage, probing and replacement.
#include "search/tt.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "util/aligned_memory.h"

namespace axon::search {

namespace {

// Entry layout in 64 bits: move 16 | score 16 | eval 16 | depth 8 | generation 6, pv 1... bound 2.
struct Packed {
    std::uint16_t move;
    std::int16_t score;
    std::int16_t eval;
    std::uint8_t depth;
    std::uint8_t
        flags; // generation (6 bits) << 2 | bound (2 bits); pv lives in the depth's top bit
};
static_assert(sizeof(Packed) == 8);

std::uint64_t pack(const Packed& p) {
    std::uint64_t v;
    std::memcpy(&v, &p, sizeof v);
    return v;
}
Packed unpack(std::uint64_t v) {
    Packed p;
    std::memcpy(&p, &v, sizeof p);
    return p;
}

constexpr int kDepthBits = 0x7F;
constexpr int kPvBit = 0x80;

} // namespace

TranspositionTable::TranspositionTable() { resize(16); }
TranspositionTable::~TranspositionTable() { util::freeLarge(m_clusters); }

void TranspositionTable::resize(std::size_t megabytes) {
    // The new table is allocated before the old one is freed: when memory runs out the engine
    // keeps the table it has (a server session refuses the new size and goes on).
    const std::size_t clusterCount = megabytes * 1024 * 1024 / sizeof(Cluster);
    auto* clusters = static_cast<Cluster*>(util::allocateLarge(clusterCount * sizeof(Cluster), 64));
#ifdef __cpp_exceptions
    if (!clusters) throw std::bad_alloc();
#else
    // Built without exceptions (WebAssembly, a 32-bit heap): nothing could report the failure,
    // so the old table makes room for the new one, and an engine without a table cannot search.
    if (!clusters) {
        util::freeLarge(m_clusters);
        m_clusters = nullptr;
        clusters = static_cast<Cluster*>(util::allocateLarge(clusterCount * sizeof(Cluster), 64));
        if (!clusters) std::abort();
    }
#endif
    util::freeLarge(m_clusters);
    m_clusters = clusters;
    m_clusterCount = clusterCount;
    m_megabytes = megabytes;
    clear();
}

void TranspositionTable::clear() {
    // All-zero bytes are a valid empty entry for relaxed atomics of integral type.
    util::zeroInParallel(static_cast<void*>(m_clusters), m_clusterCount * sizeof(Cluster),
                         m_clearThreads);
    m_generation = 0;
}

TranspositionTable::Cluster& TranspositionTable::clusterFor(chess::Key key) const {
    // Multiply-high maps the key uniformly onto [0, count) without a modulo.
    __extension__ using Wide = unsigned __int128;
    const auto index = std::size_t(Wide(key) * m_clusterCount >> 64);
    return m_clusters[index];
}

void TranspositionTable::prefetch(chess::Key key) const { __builtin_prefetch(&clusterFor(key)); }

bool TranspositionTable::probe(chess::Key key, TTData& out) const {
    Cluster& cluster = clusterFor(key);
    for (Entry& e : cluster.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.keyXorData.load(std::memory_order_relaxed) ^ data) != key || !data) continue;
        const Packed p = unpack(data);
        out.move = chess::Move(p.move);
        out.score = p.score;
        out.eval = p.eval;
        out.depth = p.depth & kDepthBits;
        out.wasPv = p.depth & kPvBit;
        out.bound = Bound(p.flags & 3);
        return true;
    }
    return false;
}

void TranspositionTable::store(chess::Key key, chess::Move move, int score, int eval, int depth,
                               Bound bound, bool wasPv) {
    Cluster& cluster = clusterFor(key);
    Entry* victim = &cluster.entries[0];
    int worst = 1 << 30;
    for (Entry& e : cluster.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        if (!data || (e.keyXorData.load(std::memory_order_relaxed) ^ data) == key) {
            victim = &e;
            break;
        }
        // Prefer replacing shallow entries from old searches.
        const Packed p = unpack(data);
        const int age = (m_generation - (p.flags >> 2)) & kGenerationMask;
        const int worth = (p.depth & kDepthBits) - 4 * age;
        if (worth < worst) {
            worst = worth;
            victim = &e;
        }
    }

    const std::uint64_t oldData = victim->data.load(std::memory_order_relaxed);
    const bool sameKey =
        oldData && (victim->keyXorData.load(std::memory_order_relaxed) ^ oldData) == key;
    Packed p{};
    if (sameKey) {
        const Packed old = unpack(oldData);
        // Keep a deeper result for the same position unless this one is exact; keep its move
        // when the new search found none.
        if (bound != Bound::Exact && depth + 4 < (old.depth & kDepthBits) &&
            (old.flags >> 2) == m_generation)
            return;
        if (!move) move = chess::Move(old.move);
    }
    p.move = move.raw();
    p.score = std::int16_t(score);
    p.eval = std::int16_t(eval);
    p.depth = std::uint8_t(std::min(depth < 0 ? 0 : depth, kDepthBits) | (wasPv ? kPvBit : 0));
    p.flags = std::uint8_t((m_generation << 2) | std::uint8_t(bound));
    const std::uint64_t data = pack(p);
    victim->keyXorData.store(key ^ data, std::memory_order_relaxed);
    victim->data.store(data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    int used = 0;
    const std::size_t sample = std::min<std::size_t>(1000 / kClusterSize, m_clusterCount);
    for (std::size_t i = 0; i < sample; ++i) {
        for (const Entry& e : m_clusters[i].entries) {
            const std::uint64_t data = e.data.load(std::memory_order_relaxed);
            if (data && (unpack(data).flags >> 2) == m_generation) ++used;
        }
    }
    return int(used * 1000 / (sample * kClusterSize));
}

} // namespace axon::search
