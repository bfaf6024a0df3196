// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the training-data file readers (docs/training-data.md): the input is written as a
// file, then read by the streaming reader, the memory map and the whole-file reader. A file is
// either rejected with a message or every record handed out is valid (its position sets up),
// and the three readers agree on what the file holds.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "data/record_file.h"
#include "fuzz_check.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     ("axon-fuzz-records-" + std::to_string(::getpid()) + ".bin"))
                                        .string();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }

    std::vector<data::TrainingRecord> streamed;
    bool streamFailed = false;
    if (auto reader = data::RecordReader::open(path)) {
        std::vector<data::TrainingRecord> chunk(7);
        while (true) {
            auto got = (*reader)->read(chunk);
            if (!got) {
                require(!got.error().empty(), "a failed read has a message");
                streamFailed = true;
                break;
            }
            if (*got == 0) break;
            streamed.insert(streamed.end(), chunk.begin(), chunk.begin() + std::ptrdiff_t(*got));
        }
        if (!streamFailed) require(streamed.size() == (*reader)->count(), "count() records read");
    } else {
        require(!reader.error().empty(), "a refused file has a message");
        streamFailed = true;
    }
    for (const data::TrainingRecord& r : streamed) {
        require(!data::validateRecord(r), "records handed out are valid");
        (void)data::recordFen(r);
    }

    auto whole = data::readAllRecords(path);
    require(whole.ok() == !streamFailed, "the whole-file and streaming readers agree",
            whole ? "" : whole.error());
    if (whole) require(whole->size() == streamed.size(), "both readers give the same count");

    if (auto mapped = data::MappedRecords::open(path)) {
        const std::string invalid = (*mapped)->validateAll();
        if (whole) require(invalid.empty(), "a readable file maps without invalid records");
    }
    return 0;
}
