// SPDX-License-Identifier: GPL-3.0-or-later
// Statistics over training-data files (records or games, told apart by their magic) and a text
// dump of their positions.
#include "app/data_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "data/game_format.h"
#include "data/game_records.h"
#include "data/record_file.h"

namespace axon::app {

namespace {

constexpr std::size_t kBatch = 4096;

struct Totals {
    std::uint64_t count = 0, blackToMove = 0, withMove = 0, withCastling = 0;
    std::uint64_t results[3] = {};
    double scoreSum = 0, absScoreSum = 0, plySum = 0, pieceSum = 0;
    int minScore = 0, maxScore = 0, maxPly = 0;

    void add(const data::TrainingRecord& r) {
        if (count == 0) minScore = maxScore = r.score;
        ++count;
        blackToMove += r.flags & 1;
        withCastling += r.castling() != chess::NoCastling;
        withMove += r.bestMove != 0;
        ++results[int(r.result)];
        scoreSum += r.score;
        absScoreSum += std::abs(int(r.score));
        plySum += r.ply;
        pieceSum += r.pieceCount();
        minScore = std::min<int>(minScore, r.score);
        maxScore = std::max<int>(maxScore, r.score);
        maxPly = std::max<int>(maxPly, r.ply);
    }
};

// Calls f(record) for every record of the file (at most `limit` when not 0); an error or "".
template <typename F>
std::string forEachRecord(const std::string& path, std::uint64_t limit, F&& f) {
    auto reader = data::RecordReader::open(path);
    if (!reader) return reader.error();
    std::vector<data::TrainingRecord> batch(kBatch);
    std::uint64_t seen = 0;
    while (true) {
        auto n = (*reader)->read(batch);
        if (!n) return n.error();
        if (*n == 0) return {};
        for (std::size_t i = 0; i < *n; ++i) {
            if (limit && seen >= limit) return {};
            f(batch[i]);
            ++seen;
        }
    }
}

// What game files add: counts per game and ply, the results from White's view, the filters.
struct GameTotals {
    std::uint64_t files = 0, games = 0, plies = 0, bytes = 0, unscored = 0;
    std::uint64_t whiteResults[3] = {};
    data::SkipCounts plyCounts = {}; // by SkipReason, trained-on plies under None
    int maxPlies = 0;
};

// Calls f(game, index) for every game of a game file (at most `limit` games when not 0); an
// error or "".
template <typename F>
std::string forEachGame(const std::string& path, std::uint64_t limit, F&& f) {
    auto reader = data::GameReader::open(path);
    if (!reader) return reader.error();
    data::Game game;
    for (std::uint64_t index = 0; !limit || index < limit; ++index) {
        auto more = (*reader)->next(game);
        if (!more) return more.error();
        if (!*more) return {};
        f(game, index);
    }
    return {};
}

std::string moveText(const data::TrainingRecord& r) {
    if (!r.bestMove) return "none";
    return chess::toUci(chess::Move(r.bestMove), false);
}

const char* resultName(data::GameResult r) {
    return r == data::GameResult::Win ? "win" : r == data::GameResult::Loss ? "loss" : "draw";
}

} // namespace

DataCommands addDataCommand(CLI::App& app, DataCommandArgs& args) {
    auto* data = app.add_subcommand("data", "Training-data files (records or games): stats, dump");
    data->require_subcommand(1);
    DataCommands cmds;
    cmds.stats = data->add_subcommand(
        "stats", "Validate data files and print record counts, results, scores and plies");
    cmds.dump = data->add_subcommand(
        "dump", "Print records as 'FEN ; score S; result R; best MOVE; ply N' (EPD-readable)");
    for (auto* c : {cmds.stats, cmds.dump})
        c->add_option("files", args.files, "Data files (.bin) or game files (.games)")->required();
    cmds.dump->add_option("--limit", args.limit,
                          "Records (game files: plies) per file (default: all)");
    return cmds;
}

int runDataStats(const DataCommandArgs& args) {
    Totals all;
    GameTotals games;
    std::vector<data::TrainingRecord> records;
    for (const auto& path : args.files) {
        Totals file;
        std::string error;
        if (data::isGameFile(path)) {
            GameTotals fileGames;
            error = forEachGame(path, 0, [&](const data::Game& g, std::uint64_t) {
                ++fileGames.games;
                fileGames.plies += g.plies.size();
                fileGames.maxPlies = std::max(fileGames.maxPlies, int(g.plies.size()));
                ++fileGames.whiteResults[int(g.whiteResult)];
                for (const data::GamePly& p : g.plies)
                    fileGames.unscored += p.score == data::kNoPlyScore;
                records.clear();
                data::appendGameRecords(g, records, fileGames.plyCounts);
                for (const auto& r : records) file.add(r), all.add(r);
            });
            if (error.empty()) {
                std::error_code ec;
                fileGames.bytes = std::filesystem::file_size(path, ec);
                std::printf(
                    "file           %s %" PRIu64 " games, %" PRIu64 " plies, %" PRIu64
                    " records (%.2f bytes a ply, %.2f a record)\n",
                    path.c_str(), fileGames.games, fileGames.plies, file.count,
                    double(fileGames.bytes) / double(std::max<std::uint64_t>(1, fileGames.plies)),
                    double(fileGames.bytes) / double(std::max<std::uint64_t>(1, file.count)));
                ++games.files;
                games.games += fileGames.games;
                games.plies += fileGames.plies;
                games.bytes += fileGames.bytes;
                games.unscored += fileGames.unscored;
                games.maxPlies = std::max(games.maxPlies, fileGames.maxPlies);
                for (int i = 0; i < 3; ++i) games.whiteResults[i] += fileGames.whiteResults[i];
                for (int i = 0; i < 5; ++i) games.plyCounts[i] += fileGames.plyCounts[i];
            }
        } else {
            error = forEachRecord(path, 0, [&](const data::TrainingRecord& r) {
                file.add(r);
                all.add(r);
            });
            if (error.empty())
                std::printf("file           %s %" PRIu64 " records\n", path.c_str(), file.count);
        }
        if (!error.empty()) {
            std::fprintf(stderr, "axon data stats: %s\n", error.c_str());
            return 1;
        }
    }
    if (games.files) {
        const double g = double(std::max<std::uint64_t>(1, games.games));
        const double plies = double(std::max<std::uint64_t>(1, games.plies));
        using data::SkipReason;
        std::printf("games          %" PRIu64 " in %" PRIu64 " game files, white %" PRIu64
                    " draw %" PRIu64 " black %" PRIu64 "\n",
                    games.games, games.files, games.whiteResults[2], games.whiteResults[1],
                    games.whiteResults[0]);
        std::printf("plies          %" PRIu64 " (mean %.1f a game, max %d), %" PRIu64
                    " without a score\n",
                    games.plies, double(games.plies) / g, games.maxPlies, games.unscored);
        std::printf("size           %" PRIu64 " bytes, %.2f a ply, %.2f a record\n", games.bytes,
                    double(games.bytes) / plies,
                    double(games.bytes) /
                        double(std::max<std::uint64_t>(1, games.plyCounts[int(SkipReason::None)])));
        std::printf("filtered       in check %" PRIu64 ", capture/promotion %" PRIu64
                    ", opening %" PRIu64 ", decided %" PRIu64 "\n",
                    games.plyCounts[int(SkipReason::InCheck)],
                    games.plyCounts[int(SkipReason::NoisyBestMove)],
                    games.plyCounts[int(SkipReason::Opening)],
                    games.plyCounts[int(SkipReason::Decided)]);
    }
    const double n = double(std::max<std::uint64_t>(1, all.count));
    std::printf("records        %" PRIu64 "%s\n", all.count,
                games.files ? " (game files: the plies that pass datagen's filters)" : "");
    std::printf("valid          yes\n");
    std::printf("black to move  %.1f%%\n", 100.0 * double(all.blackToMove) / n);
    std::printf("castling       %.1f%% with a right\n", 100.0 * double(all.withCastling) / n);
    std::printf("results        win %" PRIu64 " draw %" PRIu64 " loss %" PRIu64 " (side to move)\n",
                all.results[2], all.results[1], all.results[0]);
    std::printf("score          mean %.1f  mean |score| %.1f  min %d  max %d\n", all.scoreSum / n,
                all.absScoreSum / n, all.minScore, all.maxScore);
    std::printf("ply            mean %.1f  max %d\n", all.plySum / n, all.maxPly);
    std::printf("pieces         mean %.1f\n", all.pieceSum / n);
    std::printf("best move      %.1f%%\n", 100.0 * double(all.withMove) / n);
    return 0;
}

// Every ply of a game file, the position it is played from first: the filter that leaves it
// out of training, if any, and the game's index close the line.
std::string dumpGames(const std::string& path, std::uint64_t limit) {
    std::uint64_t printed = 0;
    // A game holds at least one ply as datagen writes them, so `limit` games are enough.
    return forEachGame(path, limit, [&](const data::Game& g, std::uint64_t index) {
        data::forEachPosition(
            g, [&](const chess::Position& pos, const data::GamePly& ply, std::size_t i) {
                if (limit && printed >= limit) return;
                ++printed;
                const data::SkipReason skip = data::plySkipReason(pos, ply, i);
                const data::GameResult result = pos.sideToMove() == chess::White
                                                    ? g.whiteResult
                                                    : data::GameResult(2 - int(g.whiteResult));
                std::string score = ply.score == data::kNoPlyScore ? std::string("none")
                                                                   : std::to_string(ply.score);
                std::printf("%s ; score %s; result %s; best %s; ply %d; game %" PRIu64 "%s%s\n",
                            chess::toFen(pos).c_str(), score.c_str(), resultName(result),
                            chess::toUci(ply.move, pos.isChess960()).c_str(), pos.gamePly(), index,
                            skip == data::SkipReason::None ? "" : "; filtered ",
                            skip == data::SkipReason::None ? "" : data::toString(skip));
            });
    });
}

int runDataDump(const DataCommandArgs& args) {
    for (const auto& path : args.files) {
        if (data::isGameFile(path)) {
            if (const std::string error = dumpGames(path, args.limit); !error.empty()) {
                std::fprintf(stderr, "axon data dump: %s\n", error.c_str());
                return 1;
            }
            continue;
        }
        const std::string error =
            forEachRecord(path, args.limit, [](const data::TrainingRecord& r) {
                std::printf("%s ; score %d; result %s; best %s; ply %d\n",
                            data::recordFen(r).c_str(), int(r.score), resultName(r.result),
                            moveText(r).c_str(), int(r.ply));
            });
        if (!error.empty()) {
            std::fprintf(stderr, "axon data dump: %s\n", error.c_str());
            return 1;
        }
    }
    return 0;
}

} // namespace axon::app
