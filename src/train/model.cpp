// SPDX-License-Identifier: GPL-3.0-or-later
// The model a configuration asks for.
#include "train/model.h"

#include "train/linear_model.h"
#include "train/perspective_model.h"

namespace axon::train {

std::unique_ptr<Model> makeModel(const TrainConfig& config) {
    if (config.model == ModelKind::Linear) return std::make_unique<LinearModel>();
    return std::make_unique<PerspectiveModel>(config.arch, float(config.clip));
}

} // namespace axon::train
