// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the game-file reader (data/game_format.h): the input is written as a file and read
// game by game. A file is either refused with a message naming it and a byte offset, or every
// game handed out replays, re-encodes to the bytes it was read from, and converts to valid
// records; the streaming and whole-file readers agree.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "data/game_format.h"
#include "data/game_records.h"
#include "fuzz_check.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     ("axon-fuzz-games-" + std::to_string(::getpid()) + ".games"))
                                        .string();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }

    bool failed = false;
    std::uint64_t games = 0;
    if (auto reader = data::GameReader::open(path)) {
        std::size_t offset = data::kGameHeaderSize;
        data::Game game;
        while (true) {
            auto more = (*reader)->next(game);
            if (!more) {
                require(more.error().rfind(path + ": byte ", 0) == 0,
                        "a refused game names the file and offset", more.error());
                failed = true;
                break;
            }
            if (!*more) break;
            ++games;
            std::vector<std::uint8_t> bytes;
            require(data::encodeGame(game, bytes).empty(), "a game read re-encodes");
            require(offset + bytes.size() <= size &&
                        std::memcmp(bytes.data(), data + offset, bytes.size()) == 0,
                    "a game re-encodes to the bytes it was read from");
            offset += bytes.size();
            std::vector<data::TrainingRecord> records;
            data::SkipCounts counts = {};
            data::appendGameRecords(game, records, counts);
            for (const auto& r : records) require(!data::validateRecord(r), "records are valid");
        }
        if (!failed) require(games == (*reader)->games(), "the header's game count is read");
    } else {
        require(reader.error().rfind(path + ": byte ", 0) == 0 ||
                    reader.error().rfind("cannot read", 0) == 0,
                "a refused file names itself and the offset", reader.error());
        failed = true;
    }
    auto whole = data::readAllGames(path);
    require(whole.ok() == !failed, "the whole-file and streaming readers agree",
            whole ? "" : whole.error());
    if (whole) require(whole->size() == games, "both readers give the same count");
    return 0;
}
