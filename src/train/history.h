// SPDX-License-Identifier: GPL-3.0-or-later
// The run's history, one row per superbatch: written as CSV and drawn as an SVG plot of the
// training and validation loss (hand-written SVG, no dependencies).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace axon::train {

struct HistoryRow {
    int superbatch = 0;   // 1-based
    double positions = 0; // cumulative
    double trainLoss = 0; // mean over the superbatch
    double valLoss = -1;  // negative: no validation data
    double lr = 0;
    double seconds = 0;            // cumulative training time
    double positionsPerSecond = 0; // in this superbatch
};

constexpr const char* kHistoryCsvHeader =
    "superbatch,positions,train_loss,val_loss,lr,seconds,positions_per_second";

std::string historyCsv(const std::vector<HistoryRow>& rows);
std::string historySvg(const std::vector<HistoryRow>& rows);

} // namespace axon::train
