// SPDX-License-Identifier: GPL-3.0-or-later
// `axon grow`'s configuration (merge, repeat, every kind of bad input), its state file and the
// gate's block files. The loop itself runs end to end, killed and resumed, in
// tests/cli/grow_cli.sh.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/eval_file.h"
#include "grow/gate.h"
#include "grow/grow_config.h"
#include "grow/grow_report.h"
#include "grow/grow_state.h"
#include "grow/speed_ratio.h"

namespace axon::grow {
namespace {

namespace fs = std::filesystem;

const char* kConfig = R"({
  "start_network": "embedded",
  "defaults": {
    "datagen": {"seeds": [11, 12], "positions": 1000, "soft_nodes": 300, "jobs": 2},
    "train": {"passes": 4, "lr": 0.001, "wdl": 0.2},
    "candidates": [{"name": "h256", "hidden": 256, "mirror": true, "input_buckets": 4,
                    "output_buckets": 8}],
    "gate": {"limit": "8+0.08", "max_games": 1000, "openings": "book.epd",
             "sprt": {"elo0": 0, "elo1": 10}}
  },
  "generations": [
    {"name": "first", "datagen": {"positions": 2000}},
    {"name": "more", "repeat": 3, "seed_step": 100,
     "train": {"generations": 2},
     "candidates": [{"name": "h512", "hidden": 512, "train": {"lr": 0.0005}},
                    {"name": "h256", "hidden": 256}]}
  ]
})";

TEST(GrowConfig, DefaultsMergeUnderEachGenerationAndRepeatMovesTheSeedsOn) {
    auto config = parseGrowConfig(kConfig);
    ASSERT_TRUE(config) << config.error();
    EXPECT_TRUE(config->startNetwork.empty()); // "embedded"
    EXPECT_EQ(config->nice, 19);
    ASSERT_EQ(config->generations.size(), 4u);
    const Generation& first = config->generations[0];
    EXPECT_EQ(first.name, "first");
    EXPECT_EQ(first.datagen.positions, 2000u);
    EXPECT_EQ(first.datagen.softNodes, 300u);
    EXPECT_EQ(first.datagen.seeds, (std::vector<std::uint64_t>{11, 12}));
    EXPECT_FALSE(first.datagen.keepNoisy);
    ASSERT_EQ(first.candidates.size(), 1u);
    EXPECT_EQ(first.candidates[0].arch.inputBuckets, 4);
    EXPECT_TRUE(first.candidates[0].arch.mirror);
    EXPECT_DOUBLE_EQ(first.candidates[0].train.wdl, 0.2);
    EXPECT_EQ(first.gate.limit, "8+0.08");

    const char* names[] = {"more-1", "more-2", "more-3"};
    for (int k = 0; k < 3; ++k) {
        const Generation& g = config->generations[std::size_t(k) + 1];
        EXPECT_EQ(g.name, names[k]);
        EXPECT_EQ(g.datagen.positions, 1000u);
        EXPECT_EQ(g.datagen.seeds,
                  (std::vector<std::uint64_t>{11u + 100u * unsigned(k), 12u + 100u * unsigned(k)}));
        EXPECT_EQ(g.gate.seed, 1u + unsigned(k));
        // The candidates list replaces the defaults' list; each candidate's own train keys
        // merge over the generation's, which merge over the defaults'.
        ASSERT_EQ(g.candidates.size(), 2u);
        EXPECT_EQ(g.candidates[0].arch.hidden, 512);
        EXPECT_FALSE(g.candidates[0].arch.mirror);
        EXPECT_DOUBLE_EQ(g.candidates[0].train.lr, 0.0005);
        EXPECT_EQ(g.candidates[0].train.generations, 2);
        EXPECT_DOUBLE_EQ(g.candidates[1].train.lr, 0.001);
        EXPECT_DOUBLE_EQ(g.candidates[1].train.passes, 4);
    }
    // The resolved settings differ between repeats (their seeds), so each is its own check.
    EXPECT_NE(config->generations[1].resolved, config->generations[2].resolved);

    // Without a gate object anywhere the repeats' gates still get seeds 1, 2, ...
    auto bare = parseGrowConfig(R"({"generations": [{"name": "g", "repeat": 2,
        "datagen": {"seeds": [5], "positions": 10}, "candidates": [{"name": "c"}]}]})");
    ASSERT_FALSE(bare); // a gate needs its openings
    EXPECT_NE(bare.error().find("gate.openings: required"), std::string::npos) << bare.error();
    auto seeded = parseGrowConfig(R"({"generations": [{"name": "g", "repeat": 2,
        "datagen": {"seeds": [5], "positions": 10}, "candidates": [{"name": "c"}],
        "gate": {"openings": "b.epd"}}]})");
    ASSERT_TRUE(seeded) << seeded.error();
    EXPECT_EQ(seeded->generations[0].gate.seed, 1u);
    EXPECT_EQ(seeded->generations[1].gate.seed, 2u);
    EXPECT_EQ(seeded->generations[1].datagen.seeds, (std::vector<std::uint64_t>{1005}));

    std::string noisy = kConfig;
    noisy.replace(noisy.find("\"positions\": 2000"), 17,
                  "\"positions\": 2000, \"keep_noisy\": true");
    auto kept = parseGrowConfig(noisy);
    ASSERT_TRUE(kept) << kept.error();
    EXPECT_TRUE(kept->generations[0].datagen.keepNoisy);

    // No teacher unless one is named; a named one with its options in order, limit and factor.
    EXPECT_FALSE(config->generations[0].label.enabled());
    std::string taught = kConfig;
    taught.replace(taught.find("\"positions\": 2000}"), 18,
                   "\"positions\": 2000}, \"label\": {\"engine\": \"/usr/games/stockfish\", "
                   "\"options\": {\"Threads\": 1, \"Hash\": \"16\"}, \"depth\": 3, \"jobs\": 2, "
                   "\"score_factor\": 1.74}");
    auto withTeacher = parseGrowConfig(taught);
    ASSERT_TRUE(withTeacher) << withTeacher.error();
    const LabelPlan& lp = withTeacher->generations[0].label;
    EXPECT_TRUE(lp.enabled());
    EXPECT_EQ(lp.command, "/usr/games/stockfish");
    EXPECT_EQ(lp.options,
              (std::vector<std::pair<std::string, std::string>>{{"Hash", "16"}, {"Threads", "1"}}));
    EXPECT_EQ(lp.depth, 3);
    EXPECT_EQ(lp.nodes, 0);
    EXPECT_EQ(lp.jobs, 2);
    EXPECT_EQ(lp.inFlight, 16);
    EXPECT_DOUBLE_EQ(lp.scoreFactor, 1.74);

    // No pre-screen unless one is named; one named in the defaults reaches every generation.
    EXPECT_EQ(config->generations[0].gate.prescreen.games, 0);
    std::string screened = kConfig;
    screened.replace(screened.find("\"max_games\": 1000"), 17,
                     "\"max_games\": 1000, \"prescreen\": {\"limit\": \"nodes=10000\", "
                     "\"games\": 1000, \"min_elo\": 2.5}");
    auto pre = parseGrowConfig(screened);
    ASSERT_TRUE(pre) << pre.error();
    for (const Generation& g : pre->generations) {
        EXPECT_EQ(g.gate.prescreen.limit, "nodes=10000");
        EXPECT_EQ(g.gate.prescreen.games, 1000);
        EXPECT_DOUBLE_EQ(g.gate.prescreen.minElo, 2.5);
        EXPECT_FALSE(g.gate.prescreen.equalTime);
        EXPECT_EQ(g.gate.prescreen.speedRounds, 5);
        EXPECT_EQ(g.gate.prescreen.speedDepth, 13);
        EXPECT_EQ(g.gate.limit, "8+0.08");
        // The pre-screen's match: its own limit and length, played to the end.
        const GatePlan p = prescreenPlan(g.gate);
        EXPECT_EQ(p.limit, "nodes=10000");
        EXPECT_EQ(p.maxGames, 1000);
        EXPECT_EQ(p.minGames, 1000);
        EXPECT_TRUE(p.fixedLength);
        EXPECT_EQ(p.openings, g.gate.openings);
        EXPECT_EQ(p.seed, g.gate.seed);
    }

    // With an SPRT the pre-screen may end early: after min_games, on its own bounds.
    std::string sequential = kConfig;
    sequential.replace(
        sequential.find("\"max_games\": 1000"), 17,
        "\"max_games\": 1000, \"prescreen\": {\"limit\": \"nodes=10000\", "
        "\"games\": 800, \"sprt\": {\"elo0\": -5, \"elo1\": 15}, \"min_games\": 64}");
    auto seq = parseGrowConfig(sequential);
    ASSERT_TRUE(seq) << seq.error();
    const GatePlan sp = prescreenPlan(seq->generations[0].gate);
    EXPECT_FALSE(sp.fixedLength);
    EXPECT_EQ(sp.maxGames, 800);
    EXPECT_EQ(sp.minGames, 64);
    EXPECT_DOUBLE_EQ(sp.sprt.elo0, -5);
    EXPECT_DOUBLE_EQ(sp.sprt.elo1, 15);
    EXPECT_DOUBLE_EQ(sp.sprt.alpha, 0.05);
    EXPECT_EQ(sp.limit, "nodes=10000");
    EXPECT_DOUBLE_EQ(seq->generations[0].gate.sprt.elo0, 0) << "the gate's own SPRT is untouched";
    // An empty object: a test of level, [-10, 10].
    std::string emptySprt = kConfig;
    emptySprt.replace(
        emptySprt.find("\"max_games\": 1000"), 17,
        "\"max_games\": 1000, \"prescreen\": {\"limit\": \"nodes=10000\", \"games\": 800, "
        "\"sprt\": {}}");
    auto bareConfig = parseGrowConfig(emptySprt);
    ASSERT_TRUE(bareConfig) << bareConfig.error();
    const GatePlan bp = prescreenPlan(bareConfig->generations[0].gate);
    EXPECT_FALSE(bp.fixedLength);
    EXPECT_DOUBLE_EQ(bp.sprt.elo0, -10);
    EXPECT_DOUBLE_EQ(bp.sprt.elo1, 10);
    EXPECT_EQ(bp.minGames, 100);
    // A lopsided score decides before the end; a level one plays on; the full-length pre-screen
    // never decides early.
    match::MatchScore lopsided;
    lopsided.wins = 70;
    lopsided.draws = 40;
    lopsided.losses = 10;
    lopsided.pentanomial = {2, 6, 16, 20, 16};
    EXPECT_EQ(outcomeOf(lopsided, sp).verdict, GateVerdict::AcceptH1);
    match::MatchScore reversed = lopsided;
    std::swap(reversed.wins, reversed.losses);
    reversed.pentanomial = {16, 20, 16, 6, 2};
    EXPECT_EQ(outcomeOf(reversed, sp).verdict, GateVerdict::AcceptH0);
    match::MatchScore level;
    level.wins = level.losses = 40;
    level.draws = 40;
    level.pentanomial = {6, 12, 24, 12, 6};
    EXPECT_EQ(outcomeOf(level, sp).verdict, GateVerdict::Running);
    EXPECT_EQ(outcomeOf(lopsided, prescreenPlan(pre->generations[0].gate)).verdict,
              GateVerdict::Running);
    match::MatchScore early = lopsided; // H1 by its LLR, but under min_games
    early.wins = 28;
    early.draws = 16;
    early.losses = 4;
    early.pentanomial = {1, 2, 6, 8, 7};
    EXPECT_EQ(outcomeOf(early, sp).verdict, GateVerdict::Running);
}

TEST(GrowConfig, EveryBadInputIsRefusedWithItsPlace) {
    const std::string good = kConfig;
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return text.replace(at, from.size(), to);
    };
    const std::pair<std::string, std::string> cases[] = {
        {"{", "not valid JSON"},
        {"[]", "config: expected an object"},
        {replaced("\"jobs\": 2", "\"jobz\": 2"), "config.generations[0].datagen.jobz: unknown key"},
        {replaced("\"positions\": 2000", "\"positions\": -5"),
         "config.generations[0].datagen.positions: out of range"},
        {replaced("\"positions\": 2000", "\"positions\": 18446744073709551615"),
         "config.generations[0].datagen.positions: out of range"},
        {replaced("\"positions\": 2000", "\"positions\": \"2000\""),
         "config.generations[0].datagen.positions: expected an integer"},
        {replaced("\"positions\": 2000", "\"positions\": 2000, \"dfrc\": 1.5"),
         "config.generations[0].datagen.dfrc: out of range"},
        {replaced("\"positions\": 2000", "\"positions\": 2000, \"dfrc\": 0.5, \"book\": \"b.epd\""),
         "config.generations[0].datagen.dfrc: not with a book"},
        {replaced("\"positions\": 2000", "\"positions\": 2000, \"keep_noisy\": 1"),
         "config.generations[0].datagen.keep_noisy: expected true or false"},
        {replaced("[11, 12]", "[11, 11]"), "seed 11 is listed twice"},
        {replaced("[11, 12]", "[]"), "config.generations[0]: no data: give datagen seeds"},
        {replaced("\"positions\": 2000}", "\"positions\": 2000}, \"convert\": [{\"from\": \"png\", "
                                          "\"inputs\": [\"a.pgn\"]}]"),
         "config.generations[0].convert[0].from: expected pgn"},
        {replaced("\"positions\": 2000}",
                  "\"positions\": 2000}, \"convert\": [{\"from\": \"pgn\"}]"),
         "config.generations[0].convert[0].inputs: expected a non-empty list"},
        {replaced("\"positions\": 2000}", "\"positions\": 2000}, \"label\": {\"depth\": 3}"),
         "config.generations[0].label.engine: required"},
        {replaced("\"positions\": 2000}", "\"positions\": 2000}, \"label\": {\"engine\": \"sf\"}"),
         "config.generations[0].label: give one limit: depth or nodes"},
        {replaced("\"positions\": 2000}",
                  "\"positions\": 2000}, \"label\": {\"engine\": \"sf\", \"depth\": 3, "
                  "\"nodes\": 5}"),
         "config.generations[0].label: give one limit: depth or nodes"},
        {replaced("\"positions\": 2000}",
                  "\"positions\": 2000}, \"label\": {\"engine\": \"sf\", \"depth\": 3, "
                  "\"score_factor\": 0}"),
         "config.generations[0].label.score_factor: out of range"},
        {replaced("\"positions\": 2000}",
                  "\"positions\": 2000}, \"label\": {\"engine\": \"sf\", \"depth\": 3, "
                  "\"options\": {\"Hash\": 1.5}}"),
         "config.generations[0].label.options.Hash: expected a string, integer or boolean"},
        {replaced("\"hidden\": 512", "\"hidden\": 500"), "hidden: must be a multiple of 32"},
        {replaced("\"name\": \"h512\"", "\"name\": \"../x\""), "name: expected 1-40 characters"},
        {replaced("\"name\": \"h512\"", "\"name\": \"h256\""), "the name 'h256' is used twice"},
        {replaced("\"name\": \"first\"", "\"name\": \"more-2\""),
         "the generation name 'more-2' is used twice"},
        {replaced("\"limit\": \"8+0.08\"", "\"limit\": \"fast\""), "gate.limit"},
        {replaced("\"elo1\": 10", "\"elo1\": -10"), "elo1 must exceed elo0"},
        {replaced("\"lr\": 0.0005", "\"lr\": 1e400"), "not valid JSON"},
        {replaced("\"lr\": 0.0005", "\"lr\": -1"), "candidates[0].train.lr: out of range"},
        {replaced("\"repeat\": 3", "\"repeat\": 0"), "repeat: expected an integer 1..1000"},
        {replaced("\"start_network\"", "\"start_net\""), "config.start_net: unknown key"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"min_games\": 2000"),
         "min_games: must not exceed max_games"},
        {replaced("\"max_games\": 1000", "\"max_games\": 999"), "max_games: must be even"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"games\": 10}"),
         "gate.prescreen.limit: required"},
        {replaced("\"max_games\": 1000",
                  "\"max_games\": 1000, \"prescreen\": {\"limit\": \"nodes=9\"}"),
         "gate.prescreen.games: required"},
        {replaced("\"max_games\": 1000",
                  "\"max_games\": 1000, \"prescreen\": {\"limit\": \"nodes=9\", \"games\": 9}"),
         "gate.prescreen.games: must be even"},
        {replaced("\"max_games\": 1000",
                  "\"max_games\": 1000, \"prescreen\": {\"limit\": \"quick\", \"games\": 8}"),
         "gate.prescreen.limit"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"nodes=9\", \"games\": 8, \"min_elo\": \"0\"}"),
         "gate.prescreen.min_elo: expected a number"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"nodes=9\", \"games\": 8, \"sprt\": {\"elo1\": -20}}"),
         "gate.prescreen.sprt: elo1 must exceed elo0"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"nodes=9\", \"games\": 8, \"sprt\": {\"elo2\": 1}}"),
         "gate.prescreen.sprt.elo2: unknown key"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"nodes=9\", \"games\": 8, \"min_games\": 4}"),
         "gate.prescreen.min_games: needs an sprt"},
        {replaced("\"max_games\": 1000",
                  "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                  "\"nodes=9\", \"games\": 8, \"sprt\": {}, \"min_games\": 10}"),
         "gate.prescreen.min_games: must not exceed games"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"8+0.08\", \"games\": 8, \"equal_time\": true}"),
         "gate.prescreen.equal_time: needs a nodes=N limit"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"prescreen\": {\"limit\": "
                                         "\"nodes=9\", \"games\": 8, \"speed_rounds\": 0}"),
         "gate.prescreen.speed_rounds: out of range"},
        {replaced("\"max_games\": 1000", "\"max_games\": 1000, \"seed\": \"7\""),
         "config.generations[0].gate.seed: expected an integer"},
        {replaced("\"name\": \"first\"", "\"name\": \"state.json\""),
         "is a file of the work directory"},
        {replaced("\"positions\": 2000}", "\"positions\": 2000}, \"convert\": [{\"from\": \"pgn\", "
                                          "\"inputs\": [\"a.pgn\"], \"min_elo\": 2000}]"),
         "convert[0].min_elo: applies to \"from\": \"lichess-pgn\" only"},
    };
    for (const auto& [text, expected] : cases) {
        auto config = parseGrowConfig(text);
        ASSERT_FALSE(config) << "accepted: " << expected;
        EXPECT_NE(config.error().find(expected), std::string::npos)
            << "expected '" << expected << "' in: " << config.error();
    }
}

// The repository's own configurations (configs/grow) parse, and name files that exist.
TEST(GrowConfig, TheRepositorysConfigurationsAreValid) {
    const fs::path source = AXON_SOURCE_DIR;
    int files = 0;
    for (const auto& entry : fs::directory_iterator(source / "configs" / "grow")) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        std::ifstream in(entry.path());
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        auto config = parseGrowConfig(text);
        ASSERT_TRUE(config) << entry.path() << ": " << config.error();
        if (!config->startNetwork.empty()) {
            EXPECT_TRUE(fs::exists(source / config->startNetwork)) << config->startNetwork;
        }
        for (const Generation& g : config->generations)
            for (const Candidate& c : g.candidates) EXPECT_GE(c.train.passes, 1) << g.name;
    }
    EXPECT_GE(files, 2);
}

// Comments, at any depth, are not settings: a started generation keeps its work when only they
// change; a real change beside them still counts.
TEST(GrowConfig, CommentsAreNotSettings) {
    const std::string head = R"({"defaults": {"gate": {"openings": "book.epd"}}, )";
    const std::string plain = head + R"("generations": [{"name": "g",
        "datagen": {"seeds": [1], "positions": 1000},
        "candidates": [{"name": "h32", "hidden": 32}]}]})";
    const std::string commented = head + R"("comment": "top", "generations": [{"name": "g",
        "comment": "the generation",
        "datagen": {"seeds": [1], "positions": 1000, "comment": "the data"},
        "candidates": [{"name": "h32", "hidden": 32, "comment": "a candidate"}]}]})";
    const std::string changed = head + R"("generations": [{"name": "g",
        "comment": "the generation",
        "datagen": {"seeds": [2], "positions": 1000},
        "candidates": [{"name": "h32", "hidden": 32}]}]})";
    auto a = parseGrowConfig(plain), b = parseGrowConfig(commented), c = parseGrowConfig(changed);
    ASSERT_TRUE(a) << a.error();
    ASSERT_TRUE(b) << b.error();
    ASSERT_TRUE(c) << c.error();
    const std::string& ra = a->generations[0].resolved;
    EXPECT_NE(ra, b->generations[0].resolved); // the state keeps the text as it was
    EXPECT_TRUE(sameSettingsBeside(ra, b->generations[0].resolved, {}));
    EXPECT_TRUE(sameSettingsBeside(b->generations[0].resolved, ra, {"candidates"}));
    EXPECT_FALSE(sameSettingsBeside(ra, c->generations[0].resolved, {}));
    EXPECT_FALSE(sameSettingsBeside(b->generations[0].resolved, c->generations[0].resolved,
                                    {"candidates", "gate"}));
    EXPECT_TRUE(
        sameSettingsBeside(b->generations[0].resolved, c->generations[0].resolved, {"datagen"}));
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() /
                         ("axon-grow-test-" + name + "-" +
                          std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(GrowState, RoundTripsAndRefusesADamagedFile) {
    const fs::path dir = freshDir("state");
    const std::string path = (dir / "state.json").string();
    auto empty = loadGrowState(path);
    ASSERT_TRUE(empty) << empty.error();
    EXPECT_TRUE(empty->generations.empty());

    GrowState state;
    GenerationState g;
    g.name = "g1";
    g.resolved = R"({"name":"g1"})";
    g.dataDone = true;
    g.positions = 1234;
    g.dataCost = {10.5, 6.25};
    CandidateState c;
    c.name = "h256";
    c.train.done = true;
    c.train.superbatches = 40;
    c.train.trainLoss = 0.0068;
    c.train.valLoss = std::nan(""); // a diverged run: kept as "none"
    c.train.trainPositions = 987654;
    c.gate.error95 = 40.25;
    c.gate.llr = 2.5;
    c.gate.cost = {100, 50};
    c.gate.verdict = GateVerdict::AcceptH1;
    c.gate.wins = 5;
    c.gate.draws = 2;
    c.gate.losses = 1;
    c.gate.pentanomial = {0, 0, 1, 2, 1};
    c.gate.elo = 150.5;
    c.prescreen.verdict = GateVerdict::MaxGames;
    c.prescreen.wins = 400;
    c.prescreen.draws = 350;
    c.prescreen.losses = 250;
    c.prescreen.pentanomial = {40, 90, 200, 110, 60};
    c.prescreen.elo = 52.5;
    c.prescreen.error95 = 17.25;
    c.prescreen.cost = {300, 150};
    c.prescreenOdds = 0.875;
    g.candidates.push_back(c);
    CandidateState stopped;
    stopped.name = "h512";
    stopped.gate.verdict = GateVerdict::Stopped;
    stopped.prescreen.verdict = GateVerdict::MaxGames;
    g.candidates.push_back(stopped);
    CandidateState skipped;
    skipped.name = "h256s";
    skipped.gate.verdict = GateVerdict::Skipped;
    g.candidates.push_back(skipped);
    g.bestBefore = "/x/start.nnue";
    g.bestAfter = "/x/g1/best.nnue";
    g.promoted = "h256";
    g.done = true;
    state.generations.push_back(g);
    ASSERT_FALSE(saveGrowState(state, path));
    auto back = loadGrowState(path);
    ASSERT_TRUE(back) << back.error();
    ASSERT_EQ(back->generations.size(), 1u);
    const GenerationState& b = back->generations[0];
    EXPECT_EQ(b.resolved, g.resolved);
    EXPECT_EQ(b.positions, 1234u);
    EXPECT_DOUBLE_EQ(b.dataCost.cpuSeconds, 10.5);
    EXPECT_EQ(b.candidates[0].gate.verdict, GateVerdict::AcceptH1);
    EXPECT_DOUBLE_EQ(b.candidates[0].train.trainLoss, 0.0068);
    EXPECT_EQ(b.candidates[0].train.valLoss, -1.0);
    EXPECT_EQ(b.candidates[0].train.trainPositions, 987654u);
    EXPECT_EQ(b.candidates[0].gate.draws, 2);
    EXPECT_EQ(b.candidates[0].gate.losses, 1);
    EXPECT_DOUBLE_EQ(b.candidates[0].gate.error95, 40.25);
    EXPECT_DOUBLE_EQ(b.candidates[0].gate.llr, 2.5);
    EXPECT_DOUBLE_EQ(b.candidates[0].gate.cost.wallSeconds, 50);
    EXPECT_EQ(b.bestBefore, "/x/start.nnue");
    EXPECT_EQ(b.bestAfter, "/x/g1/best.nnue");
    EXPECT_EQ(b.candidates[0].gate.pentanomial, c.gate.pentanomial);
    EXPECT_EQ(b.candidates[0].prescreen.verdict, GateVerdict::MaxGames);
    EXPECT_EQ(b.candidates[0].prescreen.pentanomial, c.prescreen.pentanomial);
    EXPECT_EQ(b.candidates[0].prescreen.draws, 350);
    EXPECT_DOUBLE_EQ(b.candidates[0].prescreen.elo, 52.5);
    EXPECT_DOUBLE_EQ(b.candidates[0].prescreenOdds, 0.875);
    EXPECT_EQ(b.candidates[1].prescreenOdds, 0);
    EXPECT_DOUBLE_EQ(b.candidates[0].prescreen.cost.cpuSeconds, 300);
    ASSERT_EQ(b.candidates.size(), 3u);
    EXPECT_EQ(b.candidates[1].gate.verdict, GateVerdict::Stopped);
    EXPECT_EQ(b.candidates[2].gate.verdict, GateVerdict::Skipped);
    EXPECT_EQ(b.candidates[2].prescreen.verdict, GateVerdict::Running);
    EXPECT_EQ(b.promoted, "h256");
    EXPECT_TRUE(b.done);

    // The report names the promoted candidate and its Elo.
    GrowConfig config;
    const std::string md = growReportMarkdown(config, *back);
    EXPECT_NE(md.find("h256 **promoted**"), std::string::npos) << md;
    EXPECT_NE(md.find("+150.5"), std::string::npos) << md;
    EXPECT_NE(md.find("+52.5 +/- 17.2 (1000"), std::string::npos) << md;
    EXPECT_NE(md.find("node odds 0.875"), std::string::npos) << md;
    EXPECT_NE(md.find("| stopped |"), std::string::npos) << md;
    EXPECT_NE(md.find("| skipped |"), std::string::npos) << md;
    // The pre-screen's CPU counts with the gate's: 100 s + 300 s.
    EXPECT_NE(md.find("/ 0.11 |"), std::string::npos) << md;
    EXPECT_NE(growReportSvg(*back).find("</svg>"), std::string::npos);

    std::string text;
    {
        std::ifstream in(path);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    // A state written before pre-screens existed (no "prescreen" key) still reads.
    {
        nlohmann::json j = nlohmann::json::parse(text);
        for (auto& cand : j["generations"][0]["candidates"]) {
            cand.erase("prescreen");
            cand.erase("prescreen_odds");
        }
        const std::string old = j.dump(2);
        ASSERT_EQ(old.find("prescreen"), std::string::npos) << old;
        std::ofstream(path, std::ios::trunc) << old;
        auto older = loadGrowState(path);
        ASSERT_TRUE(older) << older.error() << "\n" << old;
        EXPECT_EQ(older->generations[0].candidates[0].prescreen.verdict, GateVerdict::Running);
        EXPECT_EQ(older->generations[0].candidates[0].prescreenOdds, 0);
        EXPECT_EQ(older->generations[0].candidates[0].gate.verdict, GateVerdict::AcceptH1);
    }
    for (const std::string& damaged :
         {text.substr(0, text.size() / 2), std::string("{\"axon_grow_state\": 2}"),
          std::string("{\"axon_grow_state\": 1, \"generations\": [{\"name\": 3}]}")}) {
        std::ofstream(path, std::ios::trunc) << damaged;
        auto bad = loadGrowState(path);
        ASSERT_FALSE(bad) << damaged;
        EXPECT_NE(bad.error().find(path), std::string::npos) << bad.error();
    }
    fs::remove_all(dir);
}

TEST(GrowGate, BlocksArePooledInOrderAndADamagedBlockIsAnError) {
    const fs::path dir = freshDir("gate");
    GatePlan plan;
    plan.maxGames = 8;
    plan.minGames = 0;
    plan.sprt = {0, 10, 0.05, 0.05};
    int blocks = -1;
    auto none = readGateBlocks(plan, dir.string(), &blocks);
    ASSERT_TRUE(none) << none.error();
    EXPECT_EQ(blocks, 0);
    EXPECT_EQ(none->verdict, GateVerdict::Running);

    std::ofstream(dir / "block-00000.json")
        << R"({"wins": 2, "draws": 1, "losses": 1, "pentanomial": [0, 0, 1, 1, 0]})";
    std::ofstream(dir / "block-00001.json")
        << R"({"wins": 1, "draws": 2, "losses": 1, "pentanomial": [0, 1, 0, 1, 0]})";
    // Not contiguous: block 3 without block 2 is never read.
    std::ofstream(dir / "block-00003.json")
        << R"({"wins": 4, "draws": 0, "losses": 0, "pentanomial": [0, 0, 0, 0, 2]})";
    auto pooled = readGateBlocks(plan, dir.string(), &blocks);
    ASSERT_TRUE(pooled) << pooled.error();
    EXPECT_EQ(blocks, 2);
    EXPECT_EQ(pooled->wins, 3);
    EXPECT_EQ(pooled->draws, 3);
    EXPECT_EQ(pooled->losses, 2);
    EXPECT_EQ(pooled->pentanomial, (std::array<std::int64_t, 5>{0, 1, 1, 2, 0}));
    // 8 games reach max_games without a decision.
    EXPECT_EQ(pooled->verdict, GateVerdict::MaxGames);

    // Twelve won pairs accept H1, but not before min_games.
    fs::remove(dir / "block-00000.json");
    fs::remove(dir / "block-00001.json");
    fs::remove(dir / "block-00003.json");
    std::ofstream(dir / "block-00000.json")
        << R"({"wins": 24, "draws": 0, "losses": 0, "pentanomial": [0, 0, 0, 0, 12]})";
    plan.maxGames = 1000;
    plan.minGames = 30;
    auto early = readGateBlocks(plan, dir.string());
    ASSERT_TRUE(early) << early.error();
    EXPECT_EQ(early->verdict, GateVerdict::Running);
    EXPECT_GT(early->llr, 2.95);
    plan.minGames = 24;
    auto decided = readGateBlocks(plan, dir.string());
    ASSERT_TRUE(decided) << decided.error();
    EXPECT_EQ(decided->verdict, GateVerdict::AcceptH1);
    // A pre-screen's match has no SPRT verdict: it plays to its length.
    GatePlan fixed = plan;
    fixed.fixedLength = true;
    fixed.maxGames = 24;
    auto played = readGateBlocks(fixed, dir.string());
    ASSERT_TRUE(played) << played.error();
    EXPECT_EQ(played->verdict, GateVerdict::MaxGames);
    fixed.maxGames = 26;
    auto more = readGateBlocks(fixed, dir.string());
    ASSERT_TRUE(more) << more.error();
    EXPECT_EQ(more->verdict, GateVerdict::Running);
    EXPECT_GT(more->elo, 100);
    std::ofstream(dir / "block-00000.json", std::ios::trunc)
        << R"({"wins": 0, "draws": 0, "losses": 24, "pentanomial": [12, 0, 0, 0, 0]})";
    auto lost = readGateBlocks(plan, dir.string());
    ASSERT_TRUE(lost) << lost.error();
    EXPECT_EQ(lost->verdict, GateVerdict::AcceptH0);
    std::ofstream(dir / "block-00001.json")
        << R"({"wins": 1, "draws": 2, "losses": 1, "pentanomial": [0, 1, 0, 1, 0]})";

    for (const std::string& damaged :
         {std::string(R"({"wins": 2, "draws": 1})"),
          std::string(R"({"wins": 2, "draws": 1, "losses": 1, "pentanomial": [0, 0, 1, 2, 0]})"),
          std::string(R"({"wins": -2, "draws": 5, "losses": 1, "pentanomial": [0, 0, 1, 1, 0]})"),
          // Pairs and games agree but the pairs' points are not the games' (all lost, 4 won).
          std::string(R"({"wins": 4, "draws": 0, "losses": 0, "pentanomial": [2, 0, 0, 0, 0]})"),
          std::string("not json")}) {
        std::ofstream(dir / "block-00001.json", std::ios::trunc) << damaged;
        auto bad = readGateBlocks(plan, dir.string());
        ASSERT_FALSE(bad) << damaged;
        EXPECT_NE(bad.error().find("block-00001.json"), std::string::npos) << bad.error();
    }
    fs::remove_all(dir);
}

// The equal-time pre-screen's node odds: a network against itself runs at about the same
// speed; a file that is not a network is an error naming it.
TEST(GrowSpeedRatio, ANetworkAgainstItselfIsAboutEvenAndABadFileIsAnError) {
    auto same = measureSpeedRatio(engine::kEmbeddedEvalName, "", 3, 6);
    ASSERT_TRUE(same) << same.error();
    EXPECT_GT(same->candidateNps, 0u);
    EXPECT_GT(same->bestNps, 0u);
    // Loose: the machine's load moves single runs; the median of three alternated rounds of the
    // same work stays well inside a factor of two.
    EXPECT_GT(same->ratio, 0.5);
    EXPECT_LT(same->ratio, 2.0);
    const fs::path dir = freshDir("speed");
    std::ofstream(dir / "bad.nnue") << "not a network";
    auto bad = measureSpeedRatio((dir / "bad.nnue").string(), "", 1, 4);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("bad.nnue"), std::string::npos) << bad.error();
    fs::remove_all(dir);
}

} // namespace
} // namespace axon::grow
