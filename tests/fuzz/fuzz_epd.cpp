// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the EPD reader: a line is either rejected with a message or gives a consistent record
// whose toEpd line reads back to an equal record; multi-line reading never crashes.
#include <sstream>

#include "chess/epd.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "fuzz_check.h"

using namespace axon::chess;
using axon::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = axon::fuzz::asText(data, size);
    auto record = parseEpd(text);
    if (!record) {
        require(!record.error().empty(), "a rejected EPD line has a message", std::string(text));
    } else {
        const Position& pos = record->position;
        require(pos.isConsistent(), "parsed position is consistent", std::string(text));
        const MoveList legal(pos);
        for (Move m : record->bestMoves)
            require(legal.contains(m), "bm moves are legal", std::string(text));
        for (Move m : record->avoidMoves)
            require(legal.contains(m), "am moves are legal", std::string(text));

        const std::string line = toEpd(*record);
        auto again = parseEpd(line);
        require(again.ok(), "toEpd output parses", line + (again ? "" : " -> " + again.error()));
        require(*again == *record, "toEpd reads back to an equal record",
                std::string(text) + " -> " + line);
        require(toEpd(*again) == line, "toEpd is a fixed point", line);
    }

    // The whole input as a file: any number of lines, each accepted or reported.
    std::istringstream in{std::string(text)};
    auto records = readEpd(in);
    if (!records) require(!records.error().empty(), "a rejected EPD file has a message");
    return 0;
}
