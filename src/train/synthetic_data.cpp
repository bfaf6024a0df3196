// SPDX-License-Identifier: GPL-3.0-or-later
// Random-playout positions labelled by the hand-written evaluation.
#include "train/synthetic_data.h"

#include "chess/fen.h"
#include "chess/movegen.h"
#include "data/record_file.h"
#include "eval/evaluate.h"
#include "util/prng.h"

namespace axon::train {

std::vector<data::TrainingRecord> makeSyntheticRecords(std::size_t count, std::uint64_t seed) {
    // Random games of random length, keeping a third of their positions: many short,
    // unrelated games make a held-out part of the data look like the rest. The first
    // kSkipPlies are nearly the same in every game.
    constexpr int kMinPlies = 8, kMaxPlies = 120, kSkipPlies = 4, kKeepOneIn = 3;
    util::Prng rng(seed);
    std::vector<data::TrainingRecord> out;
    out.reserve(count);
    while (out.size() < count) {
        chess::Position pos = chess::startPosition();
        const int plies = kMinPlies + int(rng.below(kMaxPlies - kMinPlies));
        for (int ply = 0; ply < plies && out.size() < count; ++ply) {
            const chess::MoveList moves(pos);
            if (moves.empty()) break;
            pos.makeMove(moves[int(rng.below(std::uint64_t(moves.size())))]);
            if (ply < kSkipPlies || rng.below(kKeepOneIn) != 0) continue;
            const int score = eval::evaluate(pos);
            const auto result = score > kSyntheticWinScore    ? data::GameResult::Win
                                : score < -kSyntheticWinScore ? data::GameResult::Loss
                                                              : data::GameResult::Draw;
            out.push_back(data::makeRecord(pos, score, result, chess::Move::none(), ply + 1));
        }
    }
    return out;
}

std::optional<std::string> writeSyntheticData(const std::string& path, std::size_t count,
                                              std::uint64_t seed) {
    auto writer = data::RecordWriter::create(path);
    if (!writer) return writer.error();
    constexpr std::size_t kBlock = 1 << 16;
    for (std::size_t done = 0; done < count; done += kBlock) {
        const auto records =
            makeSyntheticRecords(std::min(kBlock, count - done), seed + done / kBlock);
        if (auto e = (*writer)->write(records); !e.empty()) return e;
    }
    if (auto e = (*writer)->finish(); !e.empty()) return e;
    return std::nullopt;
}

} // namespace axon::train
