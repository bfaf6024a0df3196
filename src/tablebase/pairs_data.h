// SPDX-License-Identifier: GPL-3.0-or-later
// The compressed values of one table part (a side to move, a leading pawn's file): blocks of
// canonical Huffman codes over symbols that each expand, by "recursive pairing", into a run of
// values; a sparse index finds the block of any position's index. Everything read from the file
// is checked, once when the header is read and on every lookup, so a damaged file gives an error,
// never a read outside the file or a loop without end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace axon::tablebase {

// A bounds-checked cursor over the mapped file.
struct ByteReader {
    const std::uint8_t* begin = nullptr;
    const std::uint8_t* end = nullptr;
    const std::uint8_t* at = nullptr;

    bool has(std::uint64_t n) const { return std::uint64_t(end - at) >= n; }
    std::size_t offset() const { return std::size_t(at - begin); }
    // Moves to the next offset that is a multiple of `alignment` (a power of two).
    bool align(std::size_t alignment) {
        const std::size_t pad = (alignment - offset() % alignment) % alignment;
        if (!has(pad)) return false;
        at += pad;
        return true;
    }
};

class PairsData {
  public:
    // Flags of the part's header (DTZ tables use the low bits).
    enum Flag : std::uint8_t {
        SideToMove = 1,
        Mapped = 2,
        WinPlies = 4,
        LossPlies = 8,
        Wide = 16,
        SingleValue = 128
    };

    // Reads the header at r for a part of `tableSize` positions; an error says what is wrong.
    std::optional<std::string> readHeader(ByteReader& r, std::uint64_t tableSize);
    // The sparse index, the block lengths and the blocks follow all headers, each kind for every
    // part in turn: these take their share at r.
    std::optional<std::string> readSparseIndex(ByteReader& r);
    std::optional<std::string> readBlockLengths(ByteReader& r);
    std::optional<std::string> readBlocks(ByteReader& r);

    std::uint8_t flags() const { return m_flags; }
    // The value stored for `index` (< tableSize), or nothing when the data is inconsistent.
    std::optional<int> value(std::uint64_t index) const;

  private:
    std::uint8_t m_flags = 0;
    int m_singleValue = 0;
    std::uint64_t m_tableSize = 0;
    std::uint64_t m_blockSize = 0;
    int m_spanBits = 0;
    std::uint64_t m_sparseCount = 0;
    std::uint32_t m_blockCount = 0;
    std::uint64_t m_blockLengthCount = 0;
    int m_minLen = 0;
    std::vector<std::uint64_t> m_base; // per code length, the lowest code left-aligned
    const std::uint8_t* m_lowestSymbol = nullptr;
    std::uint32_t m_symbolCount = 0;
    std::vector<std::uint16_t> m_left, m_right; // pair children (a leaf's value in m_left)
    std::vector<std::uint8_t> m_symbolLength;   // values a symbol expands to, less one
    const std::uint8_t* m_sparse = nullptr;
    const std::uint8_t* m_blockLengths = nullptr;
    const std::uint8_t* m_blocks = nullptr;
};

} // namespace axon::tablebase
