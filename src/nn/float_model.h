// SPDX-License-Identifier: GPL-3.0-or-later
// Float models trained elsewhere (a dense MLP or a small CNN over a plain board encoding, or a
// perspective network in float): one interface to evaluate them, and the loader that builds
// one from a safetensors file (format in docs/float-nets.md). They recompute everything per
// position: a slow baseline next to the incremental NNUE, not a replacement.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "nn/safetensors.h"
#include "util/result.h"

namespace axon::nn {

class FloatModel {
  public:
    virtual ~FloatModel() = default;
    // Centipawns from the side to move's view. Safe to call from several threads at once:
    // scratch space is per thread.
    virtual float evaluate(const chess::Position& pos) const = 0;
    // One line: kind, encoding, layer sizes, activations and output scaling.
    virtual std::string describe() const = 0;
};

// How the last layer's single output becomes centipawns.
enum class ScorePerspective : std::uint8_t { White, SideToMove };

struct OutputHead {
    float scale = 400.0f;
    ScorePerspective perspective = ScorePerspective::SideToMove;

    float centipawns(float output, chess::Color sideToMove) const {
        const float cp = output * scale;
        return perspective == ScorePerspective::White && sideToMove == chess::Black ? -cp : cp;
    }
};

std::string_view perspectiveName(ScorePerspective p);
// "scale 400, side_to_move view", for describe().
std::string describeHead(const OutputHead& head);

// The metadata key holding the model description (JSON) in a float model's "__metadata__".
constexpr const char* kFloatModelMetadataKey = "axon";
constexpr const char* kFloatModelFormat = "axon-float-model";
constexpr int kFloatModelFormatVersion = 1;

// A dense MLP or CNN described by the "axon" metadata entry, or a perspective network
// (metadata "format" = "axon-perspective", safetensors_network.h) evaluated in float.
util::Result<std::unique_ptr<FloatModel>> parseFloatModel(const Safetensors& file);
util::Result<std::unique_ptr<FloatModel>> loadFloatModel(const std::string& path);

} // namespace axon::nn
