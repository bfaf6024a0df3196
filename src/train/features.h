// SPDX-License-Identifier: GPL-3.0-or-later
// A training record turned into what the models consume: each perspective's active input
// features, indexed through nn::orientation / nn::featureIndex exactly as inference indexes
// them, the output bucket, and the labels.
#pragma once

#include <cstdint>

#include "data/training_record.h"
#include "nn/arch.h"

namespace axon::train {

// At most 32 pieces, so at most 32 active features per perspective.
constexpr int kMaxActive = 32;

struct Sample {
    // [0] the side to move's features, [1] the other side's.
    std::uint16_t features[2][kMaxActive];
    std::uint8_t count = 0; // the same for both perspectives: one feature per piece
    std::uint8_t bucket = 0;
    std::uint8_t result = 1; // side to move: 0 loss, 1 draw, 2 win
    std::int16_t score = 0;  // side to move, centipawns
};

// The record must be valid (data::validateRecord).
void extractSample(const nn::Architecture& arch, const data::TrainingRecord& r, Sample& out);

} // namespace axon::train
