// SPDX-License-Identifier: GPL-3.0-or-later
// Synthetic training data for tests and trainer benchmarks: positions from random legal
// playouts of the start position, scored by the hand-written evaluation (eval::evaluate).
// The result label follows the score (win above kSyntheticWinScore, loss below its negative,
// draw between), so the data is self-consistent but says nothing a real game would.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/training_record.h"

namespace axon::train {

constexpr int kSyntheticWinScore = 150;

std::vector<data::TrainingRecord> makeSyntheticRecords(std::size_t count, std::uint64_t seed);

// Writes `count` records to `path` (a data file, written atomically); an error or nothing.
std::optional<std::string> writeSyntheticData(const std::string& path, std::size_t count,
                                              std::uint64_t seed);

} // namespace axon::train
