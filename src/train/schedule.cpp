// SPDX-License-Identifier: GPL-3.0-or-later
// Learning rate schedules over superbatches.
#include "train/schedule.h"

#include <cmath>
#include <numbers>

namespace axon::train {

double learningRate(const TrainConfig& c, int superbatch) {
    if (c.schedule == LrSchedule::Step) {
        if (c.stepEvery <= 0) return c.lr;
        return c.lr * std::pow(c.gamma, double(superbatch / c.stepEvery));
    }
    if (c.superbatches <= 1) return c.lr;
    const double progress = double(superbatch) / double(c.superbatches - 1);
    const double low = c.lr * c.finalLrFraction;
    return low + (c.lr - low) * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
}

} // namespace axon::train
