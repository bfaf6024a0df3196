// SPDX-License-Identifier: GPL-3.0-or-later
// The EvalFile option's values: the embedded network, the hand-written evaluation, or a
// network file on disk, resolved to what the search evaluates with.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "eval/evaluator.h"
#include "util/result.h"

namespace axon::engine {

// EvalFile's default: the network built into the binary (the hand-written evaluation when the
// build embedded none).
inline constexpr const char* kEmbeddedEvalName = "<embedded>";
// The hand-written evaluation, for comparisons.
inline constexpr const char* kHandWrittenEvalName = "<pst>";

// The embedded network, parsed once and shared; null when none was embedded.
std::shared_ptr<const nn::Network> embeddedNetwork();

// Float models (.safetensors files) need a JSON parser that the WebAssembly build leaves out,
// so the native front ends register their loader here; without one such files are refused.
using FloatModelLoader =
    std::function<util::Result<std::shared_ptr<const nn::FloatModel>>(const std::string& path)>;
void setFloatModelLoader(FloatModelLoader loader);

// Resolves an EvalFile value; a file that cannot be read or is not a valid network is an error.
util::Result<eval::EvalSource> loadEvalSource(const std::string& value);

// What an EvalFile value evaluates with, in words ("embedded network (768->256)x2->1", ...).
std::string describeEvalSource(const eval::EvalSource& source);

} // namespace axon::engine
