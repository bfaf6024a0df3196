// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/pairs_data.h"

namespace axon::tablebase {

namespace {

std::uint32_t le16(const std::uint8_t* p) { return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8; }
std::uint32_t le32(const std::uint8_t* p) {
    return le16(p) | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
std::uint64_t be32(const std::uint8_t* p) {
    return std::uint64_t(p[0]) << 24 | std::uint64_t(p[1]) << 16 | std::uint64_t(p[2]) << 8 | p[3];
}

constexpr std::uint16_t kLeafMarker = 0xFFF;

} // namespace

std::optional<std::string> PairsData::readHeader(ByteReader& r, std::uint64_t tableSize) {
    m_tableSize = tableSize;
    if (!r.has(2)) return "truncated in a block header";
    m_flags = r.at[0];
    if (m_flags & SingleValue) {
        m_singleValue = r.at[1];
        r.at += 2;
        return std::nullopt;
    }
    if (!r.has(10)) return "truncated in a block header";
    const int blockBits = r.at[1];
    m_spanBits = r.at[2];
    const int padding = r.at[3];
    m_blockCount = le32(r.at + 4);
    const int maxLen = r.at[8];
    m_minLen = r.at[9];
    r.at += 10;
    // Each block starts with 64 bits of code and no symbol is longer than 32 (the decoder
    // refills 32 bits at a time).
    if (blockBits < 3 || blockBits > 30) return "block size out of range";
    if (m_spanBits < 1 || m_spanBits > 40) return "index span out of range";
    if (m_minLen < 1 || maxLen < m_minLen || maxLen > 32) return "code lengths out of range";
    m_blockSize = std::uint64_t(1) << blockBits;
    m_sparseCount = (tableSize + (std::uint64_t(1) << m_spanBits) - 1) >> m_spanBits;
    m_blockLengthCount = std::uint64_t(m_blockCount) + std::uint64_t(padding);
    if (m_blockCount == 0) return "no blocks";

    const int lengths = maxLen - m_minLen + 1;
    if (!r.has(2 * std::uint64_t(lengths) + 2)) return "truncated in the code table";
    m_lowestSymbol = r.at;
    r.at += 2 * lengths;
    m_symbolCount = le16(r.at);
    r.at += 2;
    if (m_symbolCount == 0 || m_symbolCount > kLeafMarker) return "symbol count out of range";
    if (!r.has(3 * std::uint64_t(m_symbolCount) + (m_symbolCount & 1)))
        return "truncated in the symbol table";

    // Canonical codes: longer codes have lower values. base[i] is the lowest code of length
    // minLen + i, left-aligned in 64 bits; the last one is 0, so every lookup ends.
    m_base.assign(std::size_t(lengths), 0);
    for (int i = lengths - 2; i >= 0; --i)
        m_base[i] =
            (m_base[i + 1] + le16(m_lowestSymbol + 2 * i) - le16(m_lowestSymbol + 2 * (i + 1))) / 2;
    for (int i = 0; i < lengths; ++i) m_base[i] <<= 64 - i - m_minLen;

    m_left.resize(m_symbolCount);
    m_right.resize(m_symbolCount);
    for (std::uint32_t s = 0; s < m_symbolCount; ++s) {
        const std::uint8_t* w = r.at + 3 * s;
        m_left[s] = std::uint16_t(((w[1] & 0xF) << 8) | w[0]);
        m_right[s] = std::uint16_t((w[2] << 4) | (w[1] >> 4));
        if (m_right[s] != kLeafMarker &&
            (m_left[s] >= m_symbolCount || m_right[s] >= m_symbolCount))
            return "symbol refers to a symbol that does not exist";
    }
    r.at += 3 * m_symbolCount + (m_symbolCount & 1);

    // How many values each symbol expands to, depth first without recursion; a pair that
    // contains itself is refused.
    m_symbolLength.assign(m_symbolCount, 0);
    std::vector<std::uint8_t> state(m_symbolCount, 0); // 0 new, 1 open, 2 done
    std::vector<std::uint32_t> stack;
    for (std::uint32_t root = 0; root < m_symbolCount; ++root) {
        if (state[root] == 2) continue;
        stack.push_back(root);
        while (!stack.empty()) {
            const std::uint32_t s = stack.back();
            if (m_right[s] == kLeafMarker) {
                state[s] = 2;
                stack.pop_back();
                continue;
            }
            const std::uint32_t l = m_left[s], rgt = m_right[s];
            if (state[s] == 0) {
                state[s] = 1;
                for (std::uint32_t child : {l, rgt}) {
                    if (state[child] == 1) return "symbol pairs form a cycle";
                    if (state[child] == 0) stack.push_back(child);
                }
                continue;
            }
            if (state[l] != 2 || state[rgt] != 2) return "symbol pairs form a cycle";
            const int length = m_symbolLength[l] + m_symbolLength[rgt] + 1;
            if (length > 255) return "a symbol expands to more than 256 values";
            m_symbolLength[s] = std::uint8_t(length);
            state[s] = 2;
            stack.pop_back();
        }
    }
    return std::nullopt;
}

std::optional<std::string> PairsData::readSparseIndex(ByteReader& r) {
    if (m_flags & SingleValue) return std::nullopt;
    if (!r.has(6 * m_sparseCount)) return "truncated in the sparse index";
    m_sparse = r.at;
    r.at += 6 * m_sparseCount;
    return std::nullopt;
}

std::optional<std::string> PairsData::readBlockLengths(ByteReader& r) {
    if (m_flags & SingleValue) return std::nullopt;
    if (!r.has(2 * m_blockLengthCount)) return "truncated in the block lengths";
    m_blockLengths = r.at;
    r.at += 2 * m_blockLengthCount;
    return std::nullopt;
}

std::optional<std::string> PairsData::readBlocks(ByteReader& r) {
    if (m_flags & SingleValue) return std::nullopt;
    if (!r.align(64)) return "truncated before the blocks";
    const std::uint64_t bytes = m_blockSize * m_blockCount;
    if (bytes / m_blockSize != m_blockCount || !r.has(bytes)) return "truncated in the blocks";
    m_blocks = r.at;
    r.at += bytes;
    return std::nullopt;
}

std::optional<int> PairsData::value(std::uint64_t index) const {
    if (m_flags & SingleValue) return m_singleValue;
    if (index >= m_tableSize) return std::nullopt;

    // The sparse index gives, every `span` indices, the block and the offset within it of the
    // index in the middle of the span; from there walk to the block holding `index`.
    const std::uint64_t span = std::uint64_t(1) << m_spanBits;
    const std::uint8_t* entry = m_sparse + 6 * (index >> m_spanBits);
    std::uint64_t block = le32(entry);
    std::int64_t offset =
        std::int64_t(le16(entry + 4)) + std::int64_t(index & (span - 1)) - std::int64_t(span / 2);
    if (block >= m_blockLengthCount) return std::nullopt;
    auto lengthOf = [&](std::uint64_t b) { return std::int64_t(le16(m_blockLengths + 2 * b)); };
    while (offset < 0) {
        if (block == 0) return std::nullopt;
        offset += lengthOf(--block) + 1;
    }
    while (offset > lengthOf(block)) {
        offset -= lengthOf(block) + 1;
        if (++block >= m_blockLengthCount) return std::nullopt;
    }
    if (block >= m_blockCount) return std::nullopt;

    // Decode symbols until the one that covers `offset`. The code is read big-endian, 64 bits
    // at first and 32 more whenever 32 or fewer are left. Past the block's end come zeros: a
    // valid block never needs them, and they keep a damaged one from reading beyond.
    const std::uint8_t* data = m_blocks + block * m_blockSize;
    std::uint64_t next = 8; // the block's next unread byte
    std::uint64_t code = be32(data) << 32 | be32(data + 4);
    int bits = 64;
    std::uint32_t symbol;
    while (true) {
        std::size_t len = 0;
        while (code < m_base[len]) ++len;
        symbol = std::uint32_t((code - m_base[len]) >> (64 - len - std::size_t(m_minLen))) +
                 le16(m_lowestSymbol + 2 * len);
        if (symbol >= m_symbolCount) return std::nullopt;
        if (offset < std::int64_t(m_symbolLength[symbol]) + 1) break;
        offset -= std::int64_t(m_symbolLength[symbol]) + 1;
        const int consumed = int(len) + m_minLen;
        code <<= consumed;
        bits -= consumed;
        if (bits <= 32) {
            bits += 32;
            if (next + 4 <= m_blockSize) code |= be32(data + next) << (64 - bits);
            next += 4;
        }
    }
    // The symbol stands for a run of values: descend through its pairs to the one at `offset`.
    while (m_symbolLength[symbol]) {
        const std::uint16_t left = m_left[symbol];
        if (offset < std::int64_t(m_symbolLength[left]) + 1) {
            symbol = left;
        } else {
            offset -= std::int64_t(m_symbolLength[left]) + 1;
            symbol = m_right[symbol];
        }
    }
    return m_left[symbol];
}

} // namespace axon::tablebase
