// SPDX-License-Identifier: GPL-3.0-or-later
// EPD lines to training records: the score from `ce`, the best move from `bm`, the result from
// `c9` or a `result` operation when one holds a game result (docs/training-data.md).
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "chess/epd.h"
#include "data/convert_output.h"

namespace axon::data {

// The game result for White (1, 0.5, 0) written as "1-0", "0-1", "1/2-1/2", "1.0", "0.5" or
// "0.0"; nullopt for anything else.
std::optional<double> parseResultText(std::string_view text);

// The record of one EPD position: score `ce` (0 without one), best move the first `bm` (none
// without one), result from `c9` or `result` when either holds a result, else a draw.
TrainingRecord epdRecord(const chess::EpdRecord& epd);

// Reads every line; blank lines and '#' comments are skipped, a line that does not parse is
// counted as malformed. An error is returned only when the sink fails.
std::string convertEpd(std::istream& in, ConvertOutput& out);

} // namespace axon::data
