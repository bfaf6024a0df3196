// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the FEN reader: any text either parses into a consistent position whose FEN parses back
// to the same position, on which move generation runs, or is rejected with a message.
#include "chess/fen.h"
#include "chess/perft.h"
#include "fuzz_check.h"

using namespace axon::chess;
using axon::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = axon::fuzz::asText(data, size);
    auto pos = parseFen(text);
    if (!pos) {
        require(!pos.error().empty(), "a rejected FEN has a message", std::string(text));
        return 0;
    }
    require(pos->isConsistent(), "parsed position is consistent", std::string(text));

    // toFen is a fixed point of parse-then-write and keeps the position (same key).
    const std::string written = toFen(*pos);
    auto again = parseFen(written);
    require(again.ok(), "toFen output parses", written + (again ? "" : " -> " + again.error()));
    require(toFen(*again) == written, "toFen(parseFen(toFen(p))) == toFen(p)", written);
    require(again->key() == pos->key(), "round trip keeps the key", written);

    // Move generation, make and unmake run on whatever the parser accepts, and restore it.
    const Key before = pos->key();
    const std::uint64_t nodes = perft(*pos, 2);
    require(pos->isConsistent() && pos->key() == before, "perft restores the position", written);
    require(perft(*again, 2) == nodes, "round-tripped position has the same perft 2", written);
    return 0;
}
