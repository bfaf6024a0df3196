// SPDX-License-Identifier: GPL-3.0-or-later
// Feature extraction for training, through the inference's own indexing functions.
#include "train/features.h"

namespace axon::train {

using namespace chess;

void extractSample(const nn::Architecture& arch, const data::TrainingRecord& r, Sample& out) {
    Square squares[kMaxActive];
    Piece pieces[kMaxActive];
    Square kings[kNumColors] = {A1, A1};
    int n = 0;
    r.forEachPiece([&](Square s, Piece p) {
        squares[n] = s;
        pieces[n] = p;
        if (typeOf(p) == King) kings[colorOf(p)] = s;
        ++n;
    });
    const Color us = r.sideToMove();
    const Color perspectives[2] = {us, ~us};
    for (int side = 0; side < 2; ++side) {
        const Color c = perspectives[side];
        const nn::Orientation o = nn::orientation(arch, c, kings[c]);
        for (int i = 0; i < n; ++i)
            out.features[side][i] = std::uint16_t(nn::featureIndex(o, c, pieces[i], squares[i]));
    }
    out.count = std::uint8_t(n);
    out.bucket = std::uint8_t(nn::outputBucket(arch, n));
    out.result = std::uint8_t(r.result);
    out.score = r.score;
}

} // namespace axon::train
