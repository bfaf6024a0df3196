// SPDX-License-Identifier: GPL-3.0-or-later
// `axon convert`'s driver: the formats, the file sinks, and running a converter over the
// inputs into one output written atomically (docs/training-data.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/convert_output.h"
#include "data/datagen.h"
#include "data/lichess_pgn.h"
#include "data/lichess_puzzles.h"
#include "data/training_record.h"
#include "util/result.h"

namespace axon::data {

enum class DataFormat { Axon, Bullet, LichessPgn, EnginePgn, Puzzles, Epd, Games };

// "axon", "bullet", "lichess-pgn", "pgn" (engine matches: fastchess, cutechess, OpenBench),
// "puzzles", "epd", "games" (Axon game files, data/game_format.h).
std::optional<DataFormat> parseDataFormat(std::string_view name);
std::string formatName(DataFormat format);

// A file sink for an output format (Axon or bullet).
util::Result<std::unique_ptr<RecordSink>> createFileSink(DataFormat format,
                                                         const std::string& path);

struct ConvertConfig {
    DataFormat from = DataFormat::LichessPgn;
    DataFormat to = DataFormat::Axon;
    std::vector<std::string> inputs;
    std::string output;
    LichessPgnOptions pgn;
    PuzzleOptions puzzles;
    PositionFilter
        games; // --from games: datagen's filters, or with keepNoisy the tactical ones lifted
    ConvertOutput::Progress onProgress;
    double progressSeconds = 3.0;
};

// Converts every input into one output file. Any error (an unreadable input, a corrupt binary
// record or compressed stream, an input with nothing readable in it) stops the conversion and
// leaves no output file.
util::Result<ConvertStats> runConvert(const ConvertConfig& config);

// Converts one input into `out` (exposed for the tests): an error message, or empty.
std::string convertInput(DataFormat from, const std::string& path, const ConvertConfig& config,
                         ConvertOutput& out);

} // namespace axon::data
