// SPDX-License-Identifier: GPL-3.0-or-later
// The network a training run may start from instead of random weights (`axon train --init`):
// an Axon network file, dequantised, or a float network in safetensors. Starting from the
// shipped network lets new data refine it without the data it was trained on.
#pragma once

#include <string>

#include "nn/float_network.h"
#include "util/result.h"

namespace axon::train {

// Reads `path` as safetensors when its name ends in ".safetensors", otherwise as an Axon
// network file (.nnue); a clear error for a missing, damaged or non-perspective file.
util::Result<nn::FloatNetwork> readInitialNetwork(const std::string& path);

// "hidden 256, mirrored, 4 input buckets, 8 output buckets, QA 255, QB 64, scale 400" (bucket
// maps are compared, not printed), for error messages that name both sides of a mismatch.
std::string describeArchitecture(const nn::Architecture& arch);

} // namespace axon::train
