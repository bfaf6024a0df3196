// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes bulletformat reading (docs/training-data.md): each 32-byte board of the input is either
// rejected with a message or becomes a valid Axon record whose bulletformat board converts back
// to the same record; the file reader accepts whole boards only and reads them all.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "data/bulletformat.h"
#include "fuzz_check.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (std::size_t offset = 0; offset + data::kBulletRecordSize <= size;
         offset += data::kBulletRecordSize) {
        data::BulletBoard board;
        std::memcpy(&board, data + offset, sizeof board);
        auto record = data::fromBullet(board);
        if (!record) {
            require(!record.error().empty(), "a rejected board has a message");
            continue;
        }
        require(!data::validateRecord(*record), "a board read becomes a valid record",
                data::recordFen(*record));
        auto again = data::fromBullet(data::toBullet(*record));
        require(again.ok(), "a written board reads back", data::recordFen(*record));
        require(*again == *record, "board -> record -> board -> record is stable",
                data::recordFen(*record));
    }

    static const std::string path = (std::filesystem::temp_directory_path() /
                                     ("axon-fuzz-bullet-" + std::to_string(::getpid()) + ".bin"))
                                        .string();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    auto reader = data::BulletReader::open(path);
    if (size % data::kBulletRecordSize != 0) {
        require(!reader.ok(), "a file of partial boards is refused");
        return 0;
    }
    // An Axon data file (its magic first) is refused by name rather than read as boards.
    const bool axonMagic = size >= 8 && std::memcmp(data, "AXONDATA", 8) == 0;
    if (axonMagic && !reader) return 0;
    require(reader.ok(), "a file of whole boards opens", reader ? "" : reader.error());
    require((*reader)->count() == size / data::kBulletRecordSize, "count() is the board count");
    std::vector<data::BulletBoard> boards(5);
    std::uint64_t total = 0;
    while (true) {
        auto got = (*reader)->read(boards);
        require(got.ok(), "boards of a whole file read", got ? "" : got.error());
        if (*got == 0) break;
        total += *got;
    }
    require(total == (*reader)->count(), "every board is read");
    return 0;
}
