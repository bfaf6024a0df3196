// SPDX-License-Identifier: GPL-3.0-or-later
// The training loss: a position's target blends the search score, squashed to a win
// probability, with the game result; the loss is |prediction - target|^power on that scale.
//
//   target     = (1 - wdl) * sigmoid(score / K) + wdl * result     (result 0, 0.5, 1)
//   prediction = sigmoid(output * scale / K)                       (output * scale = cp)
//   loss       = |prediction - target|^power
//
// With K equal to the network's scale (400 by default) the prediction is sigmoid(output).
#pragma once

#include <cmath>
#include <cstdint>

namespace axon::train {

struct LossConfig {
    float wdl = 0.3f;
    float scaleK = 400.0f; // K: centipawns per unit of the sigmoid's argument
    float power = 2.0f;
    float netScale = 400.0f; // centipawns per unit of network output (Architecture::scale)
};

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// `result` is the side to move's: 0 loss, 1 draw, 2 win (data::GameResult).
inline float lossTarget(const LossConfig& c, int score, std::uint8_t result) {
    return (1.0f - c.wdl) * sigmoid(float(score) / c.scaleK) + c.wdl * 0.5f * float(result);
}

struct LossValue {
    float loss = 0;
    float gradient = 0; // d loss / d output
};

inline LossValue lossAndGradient(const LossConfig& c, float output, float target) {
    const float k = c.netScale / c.scaleK;
    const float pred = sigmoid(output * k);
    const float diff = pred - target;
    const float a = std::fabs(diff);
    LossValue v;
    if (c.power == 2.0f) {
        v.loss = a * a;
        v.gradient = 2.0f * diff;
    } else {
        const float p = std::pow(a, c.power - 1.0f);
        v.loss = p * a;
        v.gradient = c.power * p * (diff < 0 ? -1.0f : 1.0f);
    }
    v.gradient *= pred * (1.0f - pred) * k;
    return v;
}

} // namespace axon::train
