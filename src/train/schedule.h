// SPDX-License-Identifier: GPL-3.0-or-later
// The learning rate of each superbatch: constant within one, changing between them.
//   step:   lr * gamma^floor(s / stepEvery)          (stepEvery 0: constant lr)
//   cosine: from lr at the first superbatch down to lr * finalLrFraction at the last
#pragma once

#include "train/config.h"

namespace axon::train {

// `superbatch` counts from 0.
double learningRate(const TrainConfig& config, int superbatch);

} // namespace axon::train
