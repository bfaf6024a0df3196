// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration of `axon grow` (docs/grow.md): a JSON file naming the start network and, per
// generation, the self-play data to generate, the candidate networks to train on it and the
// gate (an SPRT against the current best) a candidate must pass to become the best. A
// generation's settings are the file's "defaults" with the generation's own keys merged over
// them (RFC 7386), and "repeat" makes several generations of one entry. The parser trusts
// nothing: a wrong type, a value out of range or an unknown key is an error naming its place.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/stats.h"
#include "train/config.h"
#include "util/result.h"

namespace axon::grow {

// One generation's self-play data: a datagen run per seed, `jobs` of them at a time.
struct DatagenPlan {
    std::vector<std::uint64_t> seeds;
    std::uint64_t positions = 0; // per run
    std::uint64_t softNodes = 300;
    std::uint64_t hardNodes = 0; // 0: datagen's default, 20x soft
    int randomPlies = -1;        // -1: datagen's default
    std::string book;
    double dfrc = 0;        // datagen's --dfrc: the share of games from double Chess960 starts
    bool keepNoisy = false; // datagen's --keep-noisy: positions in check and tactical ones too
    std::string syzygy;
    int threads = 1; // per run
    int jobs = 1;    // runs at once
    int hashMb = 8;
    std::uint64_t chunkPositions = 25000;
    // The network the games are played with; empty: the current best (the usual loop). Set to
    // regenerate a recorded generation's data with the network that made it.
    std::string network;
};

// Data from elsewhere, converted into this generation's data by `axon convert`'s driver:
// engine-match PGNs (OpenBench DATAGEN runs' uploads, fastchess, cutechess), Lichess PGNs,
// Axon game files, bullet or EPD files. Each entry becomes one record file.
struct ConvertPlan {
    std::string from; // a data::parseDataFormat name: "pgn", "lichess-pgn", "games", ...
    std::vector<std::string> inputs;
    int minElo = 0, maxElo = 0; // Lichess PGNs: both players' ratings within these (0: none)
    int skipPlies = 0;
    bool skipCheck = false, skipCaptures = false;
};

// A teacher's scores for the generation's data (`axon label`'s): every record file of its
// self-play runs and converted entries is labelled by a UCI engine, chunk for chunk, before any
// candidate trains, and its candidates (and later generations that train on it) read the
// labelled files. Off when `command` is empty.
struct LabelPlan {
    // The teacher's command line; "axon": this binary's own search in this process, with the
    // generation's best network unless `options` name an EvalFile (data::InProcessTeacher).
    std::string command;
    std::vector<std::pair<std::string, std::string>> options; // UCI options, in order
    int depth = 0;
    std::int64_t nodes = 0; // exactly one of depth and nodes
    int jobs = 1;           // teacher processes
    int inFlight = 16;      // data::LabelConfig::inFlight
    double scoreFactor = 1; // data::LabelConfig::scoreFactor
    bool enabled() const { return !command.empty(); }
    bool inProcess() const { return command == kInProcessTeacher; }
    static constexpr const char* kInProcessTeacher = "axon";
};

// How a candidate is trained; the architecture is the candidate's.
struct TrainPlan {
    // Train on the data of the last `generations` generations (this one included); 0: all.
    int generations = 0;
    // More training data (files or directories: converted Lichess or OpenBench data, ...).
    std::vector<std::string> extraData;
    // This many chunks of this generation's first run are held out as the validation data.
    int heldOutChunks = 1;
    double passes = 4; // over the training data
    std::int64_t superbatchPositions = 1000000;
    int minSuperbatches = 40;
    int batch = 16384;
    double lr = 0.001;
    double finalLrFraction = 0.01;
    double weightDecay = 0.01;
    double wdl = 0.2;
    int threads = 2;
    std::uint64_t seed = 1;
    bool initFromBest =
        false; // start from the current best's weights (same shape) instead of random
};

struct Candidate {
    std::string name; // a file-name-safe word: [A-Za-z0-9_.-]
    nn::Architecture arch;
    TrainPlan train;
};

// A fixed-length match before the gate: the candidate goes on to the gate (usually at a time
// control, hours on two cores) only when its Elo estimate here exceeds `minElo`. At fixed nodes
// 1000 games take minutes and measure the same networks' strength to about +/- 17 Elo; equal
// nodes favour a slower, larger network, which `equalTime` corrects with node odds.
struct PrescreenPlan {
    std::string limit; // as the gate's: usually nodes=N
    int games = 0;     // 0: no pre-screen
    double minElo = 0;
    // At equal time: the candidate's nodes are the limit's times its measured search speed
    // against the best network's (grow/speed_ratio.h); needs a nodes=N limit.
    bool equalTime = false;
    int speedRounds = 5, speedDepth = 13; // the speed measurement's bench runs
    // With an SPRT the pre-screen ends early once it decides (after minGames): a candidate far
    // from level needs a few hundred games, not all of `games`. One that ends on H0 is not
    // gated; the others go on by their Elo as after a full pre-screen. None: every game.
    std::optional<match::SprtConfig> sprt;
    int minGames = 100;
};

struct GatePlan {
    std::string limit = "8+0.08"; // a clock (match::parseTimeControl), or nodes=N / depth=N
    int maxGames = 1000;
    // No verdict before this many games: on a handful of pairs the pentanomial variance is
    // nearly zero and the LLR's normal approximation is meaningless.
    int minGames = 40;
    int blockPairs = 8; // game pairs per block: the unit a kill can lose
    match::SprtConfig sprt{0, 10, 0.05, 0.05};
    std::string openings; // EPD or PGN; empty: the start position
    int concurrency = 2;
    int hashMb = 16;
    int resignMoveCount = 3, resignScore = 1000;
    std::uint64_t seed = 1;
    PrescreenPlan prescreen;
    // Played to max_games whatever the SPRT says (a pre-screen's match): no verdict before.
    bool fixedLength = false;
};

struct Generation {
    std::string name;
    DatagenPlan datagen; // may have no seeds when `convert` brings the data
    std::vector<ConvertPlan> convert;
    LabelPlan label;
    std::vector<Candidate> candidates;
    GatePlan gate;
    // The generation's settings after the merge, as canonical JSON: what a resumed run must
    // still be configured with once the generation has started.
    std::string resolved;
};

struct GrowConfig {
    std::string startNetwork; // a .nnue file; empty: the binary's embedded network
    int nice = 19;
    std::vector<Generation> generations;
};

// Parses and checks a configuration file's text.
util::Result<GrowConfig> parseGrowConfig(std::string_view text);

// Whether two generations' resolved settings are the same but for the given top-level keys and
// every "comment": a started generation may change its comments at any time, its labels,
// training and candidates before its first label or training run, and its gate (and
// pre-screen) before its first gate game.
bool sameSettingsBeside(std::string_view resolvedA, std::string_view resolvedB,
                        std::initializer_list<const char*> keys);

} // namespace axon::grow
