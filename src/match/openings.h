// SPDX-License-Identifier: GPL-3.0-or-later
// Opening books for matches: EPD (a FEN per line) or PGN (start position plus mainline), and the
// order in which a match takes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace axon::match {

struct Opening {
    std::string fen;                // as the core's toFen writes it
    std::vector<std::string> moves; // UCI long algebraic, played from fen
    bool chess960 = false;
};

// Reads a book: files ending in ".pgn" through the core's PGN reader (games it cannot read are
// skipped), anything else as EPD lines whose first four fields (plus counters when present)
// are a FEN; operations after them are ignored. An empty book is an error.
util::Result<std::vector<Opening>> loadOpenings(const std::string& path);

enum class OpeningOrder { Sequential, Random };

// Hands out openings by index: sequential from the start, or a shuffle fixed by the seed, so a
// match can be repeated exactly. Indices past the book's size wrap around.
class OpeningSequence {
  public:
    OpeningSequence(std::vector<Opening> book, OpeningOrder order, std::uint64_t seed);
    // The book's start position alone when there is no book.
    OpeningSequence();
    const Opening& at(std::size_t index) const;
    std::size_t size() const { return m_book.size(); }

  private:
    std::vector<Opening> m_book;
    std::vector<std::size_t> m_order;
};

} // namespace axon::match
