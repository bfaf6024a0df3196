// SPDX-License-Identifier: GPL-3.0-or-later
// Checks on a training configuration and the bucket-map parser.
#include "train/config.h"

#include <charconv>

#include "nn/network.h"

namespace axon::train {

std::optional<std::string> validateConfig(const TrainConfig& c) {
    if (c.data.empty()) return "no training data given (--data)";
    if (c.out.empty()) return "no output directory given (--out)";
    if (c.valFiles.empty() && !(c.valFraction >= 0 && c.valFraction < 0.5))
        return "--val-fraction must be in [0, 0.5)";
    if (c.threads < 1 || c.threads > 256) return "--threads must be in 1..256";
    if (c.batchSize < 1 || c.batchSize > (1 << 22)) return "--batch must be in 1..4194304";
    if (c.batchSize < c.threads) return "--batch must be at least --threads";
    if (c.batchesPer() < 1) return "a superbatch must hold at least one batch";
    if (c.superbatches < 1) return "--superbatches must be at least 1";
    if (c.stopAfter < 0 || c.stopAfter > c.superbatches)
        return "--stop-after must be in 0..--superbatches";
    if (c.saveEvery < 1) return "--save-every must be at least 1";
    if (c.chunkRecords < 1 || c.bufferChunks < 1) return "shuffle chunks must be non-empty";
    if (!(c.wdl >= 0 && c.wdl <= 1)) return "--wdl must be in [0, 1]";
    if (!(c.scaleK > 0)) return "--scale must be positive";
    if (!(c.power >= 1 && c.power <= 10)) return "--power must be in [1, 10]";
    if (!(c.lr > 0 && c.lr < 10)) return "--lr must be in (0, 10)";
    if (!(c.weightDecay >= 0 && c.weightDecay < 1)) return "--weight-decay must be in [0, 1)";
    if (!(c.gamma > 0 && c.gamma <= 1)) return "--gamma must be in (0, 1]";
    if (c.stepEvery < 0) return "--step-every must be non-negative";
    if (!(c.finalLrFraction > 0 && c.finalLrFraction <= 1))
        return "--final-lr-fraction must be in (0, 1]";
    if (!(c.clip > 0)) return "--clip must be positive";
    if (c.scoreLimit < 0) return "--score-limit must be non-negative";
    if (c.valPositions < 0) return "--val-positions must be non-negative";
    if (c.model == ModelKind::Perspective) {
        if (auto e = nn::validateArchitecture(c.arch)) return "architecture: " + *e;
    }
    return std::nullopt;
}

util::Result<std::array<std::uint8_t, chess::kNumSquares>> parseBucketMap(const std::string& text,
                                                                          int buckets) {
    if (text.empty() || text == "even") return nn::evenBucketMap(buckets);
    std::array<std::uint8_t, chess::kNumSquares> map{};
    int n = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        if (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t') {
            ++p;
            continue;
        }
        int v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc() || next == p)
            return util::makeError("bucket map: not a number at '" + std::string(p, end) + "'");
        if (n >= chess::kNumSquares) return util::makeError("bucket map: more than 64 entries");
        if (v < 0 || v >= buckets)
            return util::makeError("bucket map: bucket " + std::to_string(v) + " not below " +
                                   std::to_string(buckets) + " (--input-buckets)");
        map[std::size_t(n++)] = std::uint8_t(v);
        p = next;
    }
    if (n != chess::kNumSquares)
        return util::makeError("bucket map: " + std::to_string(n) + " entries, need 64");
    return map;
}

} // namespace axon::train
