// SPDX-License-Identifier: GPL-3.0-or-later
// Network and table outputs.
#include "train/output.h"

#include <cstdio>

#include "nn/network_file.h"

namespace axon::train {

std::optional<std::string> writeQuantisedNetwork(const nn::FloatNetwork& net,
                                                 const std::string& path) {
    return nn::writeNetworkFile(nn::quantise(net), path);
}

std::string pstTableCsv(std::span<const float> weights, float bias, float scale) {
    static constexpr const char* kPieces[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    std::string out = "side,piece,rank,a,b,c,d,e,f,g,h\n";
    char buf[64];
    for (int side = 0; side < 2; ++side)
        for (int type = 0; type < chess::kNumPieceTypes; ++type)
            for (int rank = 7; rank >= 0; --rank) {
                out += side == 0 ? "own," : "their,";
                out += kPieces[type];
                out += "," + std::to_string(rank + 1);
                for (int file = 0; file < 8; ++file) {
                    const std::size_t f =
                        std::size_t((side * chess::kNumPieceTypes + type) * chess::kNumSquares +
                                    rank * 8 + file);
                    std::snprintf(buf, sizeof buf, ",%.1f", double(weights[f] * scale));
                    out += buf;
                }
                out += "\n";
            }
    std::snprintf(buf, sizeof buf, "bias,,,%.1f\n", double(bias * scale));
    out += buf;
    return out;
}

} // namespace axon::train
