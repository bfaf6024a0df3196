// SPDX-License-Identifier: GPL-3.0-or-later
// The checkpoint: everything `axon train --resume` needs to continue a run exactly as if it
// had not stopped: float parameters, Adam moments and step count, the data loader's cursor,
// the history so far, and what must match (model, architecture, seed, batch size, data size).
// Host byte order (little-endian on every supported machine), with a trailing FNV-1a hash so a
// cut or damaged file is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nn/arch.h"
#include "train/config.h"
#include "train/dataset.h"
#include "train/history.h"
#include "util/result.h"

namespace axon::train {

struct Checkpoint {
    ModelKind model = ModelKind::Perspective;
    nn::Architecture arch;
    std::uint64_t seed = 0;
    std::int64_t batchSize = 0;
    std::int64_t batchesPerSuperbatch = 0;
    std::uint64_t trainRecords = 0;
    std::int32_t superbatchesDone = 0;
    std::uint64_t adamSteps = 0;
    LoaderCursor cursor;
    std::vector<HistoryRow> history;
    std::vector<float> params, m, v;
};

std::string serializeCheckpoint(const Checkpoint& c);
util::Result<Checkpoint> parseCheckpoint(const std::string& bytes);

// Atomic (temporary file and rename); an error message or nothing.
std::optional<std::string> writeCheckpoint(const Checkpoint& c, const std::string& path);
util::Result<Checkpoint> readCheckpoint(const std::string& path);

} // namespace axon::train
