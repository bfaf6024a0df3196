// SPDX-License-Identifier: GPL-3.0-or-later
// Reading `axon grow` configuration files: the merge of defaults and generations, the repeat
// expansion and a typed, range-checked read of every key.
#include "grow/grow_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>

#include "data/convert.h"
#include "match/time_control.h"
#include "nn/network.h"

namespace axon::grow {

namespace {

using nlohmann::json;

// Errors carry the key's place in the file ("generations[1].gate.max_games").
struct ConfigError {
    std::string message;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw ConfigError{where + ": " + what};
}

// An object whose keys are checked against the known ones, read by type.
class Reader {
  public:
    Reader(const json& object, std::string where, std::initializer_list<const char*> known)
        : m_object(object), m_where(std::move(where)) {
        if (!m_object.is_object()) fail(m_where, "expected an object");
        const std::set<std::string> allowed(known.begin(), known.end());
        for (const auto& [key, value] : m_object.items())
            if (!allowed.contains(key) && key != "comment")
                fail(m_where + "." + key, "unknown key");
    }

    bool has(const char* key) const { return m_object.contains(key); }
    const json& at(const char* key) const { return m_object.at(key); }
    std::string place(const char* key) const { return m_where + "." + key; }

    template <typename Int>
    void integer(const char* key, Int& out, std::int64_t lo, std::int64_t hi) const {
        if (!has(key)) return;
        const json& v = at(key);
        if (!v.is_number_integer()) fail(place(key), "expected an integer");
        // Unsigned values above INT64_MAX are out of every range used here.
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi))
            fail(place(key), "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
        const std::int64_t n = v.get<std::int64_t>();
        if (n < lo || n > hi)
            fail(place(key), "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
        out = Int(n);
    }
    void real(const char* key, double& out, double lo, double hi) const {
        if (!has(key)) return;
        const json& v = at(key);
        if (!v.is_number()) fail(place(key), "expected a number");
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < lo || x > hi)
            fail(place(key), "out of range " + json(lo).dump() + ".." + json(hi).dump());
        out = x;
    }
    void text(const char* key, std::string& out) const {
        if (!has(key)) return;
        if (!at(key).is_string()) fail(place(key), "expected a string");
        out = at(key).get<std::string>();
    }
    void flag(const char* key, bool& out) const {
        if (!has(key)) return;
        if (!at(key).is_boolean()) fail(place(key), "expected true or false");
        out = at(key).get<bool>();
    }
    void texts(const char* key, std::vector<std::string>& out) const {
        if (!has(key)) return;
        if (!at(key).is_array()) fail(place(key), "expected a list of strings");
        out.clear();
        for (const json& v : at(key)) {
            if (!v.is_string()) fail(place(key), "expected a list of strings");
            out.push_back(v.get<std::string>());
        }
    }

  private:
    const json& m_object;
    std::string m_where;
};

constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;

bool fileNameSafe(const std::string& name) {
    return !name.empty() && name.size() <= 40 && name != "." && name != ".." &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
           });
}

DatagenPlan readDatagen(const json& object, const std::string& where) {
    const Reader r(object, where,
                   {"seeds", "positions", "soft_nodes", "hard_nodes", "random_plies", "book",
                    "dfrc", "keep_noisy", "syzygy", "threads", "jobs", "hash", "chunk_positions",
                    "network"});
    DatagenPlan d;
    if (!r.has("seeds") || !r.at("seeds").is_array())
        fail(r.place("seeds"), "expected a list of seeds");
    std::set<std::uint64_t> seen;
    for (const json& s : r.at("seeds")) {
        if (!s.is_number_unsigned()) fail(r.place("seeds"), "expected non-negative integers");
        const auto seed = s.get<std::uint64_t>();
        if (!seen.insert(seed).second)
            fail(r.place("seeds"), "seed " + std::to_string(seed) + " is listed twice");
        d.seeds.push_back(seed);
    }
    if (!d.seeds.empty() && !r.has("positions")) fail(r.place("positions"), "required");
    r.integer("positions", d.positions, 1, kMaxCount);
    r.integer("soft_nodes", d.softNodes, 1, 100000000);
    r.integer("hard_nodes", d.hardNodes, 0, 2000000000);
    if (d.hardNodes && d.hardNodes < d.softNodes)
        fail(r.place("hard_nodes"), "must be at least soft_nodes");
    r.integer("random_plies", d.randomPlies, -1, 100);
    r.text("book", d.book);
    r.real("dfrc", d.dfrc, 0, 1);
    if (d.dfrc > 0 && !d.book.empty()) fail(r.place("dfrc"), "not with a book");
    r.flag("keep_noisy", d.keepNoisy);
    r.text("syzygy", d.syzygy);
    r.integer("threads", d.threads, 1, 1024);
    r.integer("jobs", d.jobs, 1, 1024);
    r.integer("hash", d.hashMb, 1, 65536);
    r.integer("chunk_positions", d.chunkPositions, 1, kMaxCount);
    r.text("network", d.network);
    return d;
}

ConvertPlan readConvert(const json& object, const std::string& where) {
    const Reader r(
        object, where,
        {"from", "inputs", "min_elo", "max_elo", "skip_plies", "skip_check", "skip_captures"});
    ConvertPlan c;
    r.text("from", c.from);
    const auto format = data::parseDataFormat(c.from);
    if (!format)
        fail(r.place("from"), "expected pgn, lichess-pgn, games, axon, bullet, puzzles or epd");
    r.texts("inputs", c.inputs);
    if (c.inputs.empty()) fail(r.place("inputs"), "expected a non-empty list of files");
    r.integer("min_elo", c.minElo, 0, 10000);
    r.integer("max_elo", c.maxElo, 0, 10000);
    r.integer("skip_plies", c.skipPlies, 0, 1000);
    r.flag("skip_check", c.skipCheck);
    r.flag("skip_captures", c.skipCaptures);
    // The converter's game and position filters read Lichess PGNs only.
    for (const char* key : {"min_elo", "max_elo", "skip_plies", "skip_check", "skip_captures"})
        if (r.has(key) && *format != data::DataFormat::LichessPgn)
            fail(r.place(key), "applies to \"from\": \"lichess-pgn\" only");
    return c;
}

LabelPlan readLabel(const json& object, const std::string& where) {
    const Reader r(object, where,
                   {"engine", "options", "depth", "nodes", "jobs", "in_flight", "score_factor"});
    LabelPlan l;
    r.text("engine", l.command);
    if (l.command.empty()) fail(r.place("engine"), "required: the teacher's command line");
    if (r.has("options")) {
        if (!r.at("options").is_object())
            fail(r.place("options"), "expected an object of UCI option names and values");
        for (const auto& [name, value] : r.at("options").items()) {
            if (value.is_string())
                l.options.emplace_back(name, value.get<std::string>());
            else if (value.is_number_integer() || value.is_boolean())
                l.options.emplace_back(name, value.dump());
            else
                fail(r.place("options") + "." + name, "expected a string, integer or boolean");
        }
    }
    r.integer("depth", l.depth, 1, 1000);
    r.integer("nodes", l.nodes, 1, kMaxCount);
    if ((l.depth > 0) == (l.nodes > 0)) fail(where, "give one limit: depth or nodes");
    r.integer("jobs", l.jobs, 1, 1024);
    r.integer("in_flight", l.inFlight, 1, 256);
    r.real("score_factor", l.scoreFactor, 0.01, 100);
    return l;
}

TrainPlan readTrain(const json& object, const std::string& where) {
    const Reader r(object, where,
                   {"generations", "extra_data", "held_out_chunks", "passes",
                    "superbatch_positions", "min_superbatches", "batch", "lr", "final_lr_fraction",
                    "weight_decay", "wdl", "threads", "seed", "init"});
    TrainPlan t;
    r.integer("generations", t.generations, 0, 100000);
    r.texts("extra_data", t.extraData);
    r.integer("held_out_chunks", t.heldOutChunks, 0, 1000000);
    r.real("passes", t.passes, 0.001, 1000);
    r.integer("superbatch_positions", t.superbatchPositions, 1, kMaxCount);
    r.integer("min_superbatches", t.minSuperbatches, 1, 1000000);
    r.integer("batch", t.batch, 1, 1 << 20);
    r.real("lr", t.lr, 1e-9, 10);
    r.real("final_lr_fraction", t.finalLrFraction, 0, 1);
    r.real("weight_decay", t.weightDecay, 0, 10);
    r.real("wdl", t.wdl, 0, 1);
    r.integer("threads", t.threads, 1, 1024);
    r.integer("seed", t.seed, 0, std::numeric_limits<std::int64_t>::max());
    std::string init;
    r.text("init", init);
    if (init != "" && init != "random" && init != "best")
        fail(r.place("init"), "expected \"random\" or \"best\"");
    t.initFromBest = init == "best";
    return t;
}

Candidate readCandidate(const json& object, const json& trainDefaults, const std::string& where) {
    const Reader r(object, where,
                   {"name", "hidden", "mirror", "input_buckets", "bucket_map", "output_buckets",
                    "l1", "l2", "train"});
    Candidate c;
    r.text("name", c.name);
    if (!fileNameSafe(c.name))
        fail(r.place("name"), "expected 1-40 characters of A-Z a-z 0-9 _ - .");
    c.arch.hidden = 256;
    r.integer("hidden", c.arch.hidden, 32, 4096);
    if (c.arch.hidden % 32 != 0) fail(r.place("hidden"), "must be a multiple of 32");
    r.flag("mirror", c.arch.mirror);
    r.integer("input_buckets", c.arch.inputBuckets, 1, 32);
    r.integer("output_buckets", c.arch.outputBuckets, 1, 32);
    std::string map;
    r.text("bucket_map", map);
    if (map.empty() && c.arch.inputBuckets > 1) map = "even";
    auto parsed = train::parseBucketMap(map, c.arch.inputBuckets);
    if (!parsed) fail(r.place("bucket_map"), parsed.error());
    c.arch.bucketMap = *parsed;
    r.integer("l1", c.arch.l1, 0, nn::kMaxL1);
    r.integer("l2", c.arch.l2, 0, nn::kMaxL2);
    if (auto e = nn::validateArchitecture(c.arch)) fail(r.place(c.arch.l1 ? "l1" : "hidden"), *e);
    json train = trainDefaults.is_null() ? json::object() : trainDefaults;
    if (r.has("train")) train.merge_patch(r.at("train"));
    c.train = readTrain(train, where + ".train");
    return c;
}

// A gate's or a pre-screen's "sprt" object over the defaults already in `sprt`.
void readSprt(const Reader& r, match::SprtConfig& sprt) {
    const Reader s(r.at("sprt"), r.place("sprt"), {"elo0", "elo1", "alpha", "beta"});
    s.real("elo0", sprt.elo0, -1000, 1000);
    s.real("elo1", sprt.elo1, -1000, 1000);
    s.real("alpha", sprt.alpha, 1e-6, 0.5);
    s.real("beta", sprt.beta, 1e-6, 0.5);
    if (sprt.elo1 <= sprt.elo0) fail(r.place("sprt"), "elo1 must exceed elo0");
}

GatePlan readGate(const json& object, const std::string& where) {
    const Reader r(object, where,
                   {"limit", "max_games", "min_games", "block_pairs", "sprt", "openings",
                    "concurrency", "hash", "resign", "seed", "prescreen"});
    GatePlan g;
    r.text("limit", g.limit);
    if (auto tc = match::parseTimeControl(g.limit); !tc) fail(r.place("limit"), tc.error());
    r.integer("max_games", g.maxGames, 2, 10000000);
    if (g.maxGames % 2 != 0) fail(r.place("max_games"), "must be even: games are played in pairs");
    r.integer("min_games", g.minGames, 0, 10000000);
    if (g.minGames > g.maxGames) fail(r.place("min_games"), "must not exceed max_games");
    r.integer("block_pairs", g.blockPairs, 1, 100000);
    if (r.has("sprt")) readSprt(r, g.sprt);
    r.text("openings", g.openings);
    // From one start position every pair of a fixed-node gate is the same two games: the
    // pentanomial count would be one pair counted many times.
    if (g.openings.empty()) fail(r.place("openings"), "required: an EPD or PGN opening book");
    r.integer("concurrency", g.concurrency, 1, 1024);
    r.integer("hash", g.hashMb, 1, 65536);
    if (r.has("resign")) {
        const Reader s(r.at("resign"), r.place("resign"), {"movecount", "score"});
        s.integer("movecount", g.resignMoveCount, 0, 1000);
        s.integer("score", g.resignScore, 1, 100000);
    }
    r.integer("seed", g.seed, 0, std::numeric_limits<std::int64_t>::max());
    if (r.has("prescreen")) {
        const Reader s(r.at("prescreen"), r.place("prescreen"),
                       {"limit", "games", "min_elo", "equal_time", "speed_rounds", "speed_depth",
                        "sprt", "min_games"});
        if (!s.has("limit")) fail(s.place("limit"), "required: nodes=N or a clock");
        s.text("limit", g.prescreen.limit);
        if (auto tc = match::parseTimeControl(g.prescreen.limit); !tc)
            fail(s.place("limit"), tc.error());
        if (!s.has("games")) fail(s.place("games"), "required: the match's length");
        s.integer("games", g.prescreen.games, 2, 10000000);
        if (g.prescreen.games % 2 != 0)
            fail(s.place("games"), "must be even: games are played in pairs");
        s.real("min_elo", g.prescreen.minElo, -2000, 2000);
        s.flag("equal_time", g.prescreen.equalTime);
        s.integer("speed_rounds", g.prescreen.speedRounds, 1, 100);
        s.integer("speed_depth", g.prescreen.speedDepth, 1, 30);
        if (s.has("sprt")) {
            // What the object leaves out: a test of level within about +-10 (normalised Elo).
            g.prescreen.sprt = match::SprtConfig{-10, 10, 0.05, 0.05};
            readSprt(s, *g.prescreen.sprt);
        }
        if (s.has("min_games") && !g.prescreen.sprt)
            fail(s.place("min_games"), "needs an sprt: without one every game is played");
        s.integer("min_games", g.prescreen.minGames, 0, 10000000);
        if (g.prescreen.sprt && g.prescreen.minGames > g.prescreen.games)
            fail(s.place("min_games"), "must not exceed games");
        if (g.prescreen.equalTime &&
            match::parseTimeControl(g.prescreen.limit)->kind != match::TimeControl::Kind::Nodes)
            fail(s.place("equal_time"), "needs a nodes=N limit");
    }
    return g;
}

// One generation from its merged settings.
Generation readGeneration(const json& merged, const std::string& where) {
    const Reader r(merged, where,
                   {"name", "datagen", "convert", "label", "train", "candidates", "gate"});
    Generation g;
    r.text("name", g.name);
    if (!fileNameSafe(g.name))
        fail(r.place("name"), "expected 1-40 characters of A-Z a-z 0-9 _ - .");
    for (const char* reserved : {"state.json", "report.md", "report.svg"})
        if (g.name == reserved) fail(r.place("name"), "is a file of the work directory");
    if (r.has("datagen")) g.datagen = readDatagen(r.at("datagen"), r.place("datagen"));
    if (r.has("convert")) {
        if (!r.at("convert").is_array()) fail(r.place("convert"), "expected a list");
        for (std::size_t i = 0; i < r.at("convert").size(); ++i)
            g.convert.push_back(readConvert(r.at("convert")[i],
                                            r.place("convert") + "[" + std::to_string(i) + "]"));
    }
    if (g.datagen.seeds.empty() && g.convert.empty())
        fail(where, "no data: give datagen seeds, convert entries or both");
    if (r.has("label")) g.label = readLabel(r.at("label"), r.place("label"));
    const json trainDefaults = r.has("train") ? r.at("train") : json::object();
    readTrain(trainDefaults, r.place("train")); // checked even when every candidate overrides it
    if (!r.has("candidates") || !r.at("candidates").is_array() || r.at("candidates").empty())
        fail(r.place("candidates"), "expected a non-empty list");
    std::set<std::string> names;
    for (std::size_t i = 0; i < r.at("candidates").size(); ++i) {
        Candidate c = readCandidate(r.at("candidates")[i], trainDefaults,
                                    r.place("candidates") + "[" + std::to_string(i) + "]");
        if (!names.insert(c.name).second)
            fail(r.place("candidates"), "the name '" + c.name + "' is used twice");
        g.candidates.push_back(std::move(c));
    }
    g.gate = readGate(r.has("gate") ? r.at("gate") : json::object(), r.place("gate"));
    g.resolved = merged.dump();
    return g;
}

GrowConfig readConfig(const json& root) {
    const Reader r(root, "config", {"start_network", "nice", "defaults", "generations"});
    GrowConfig config;
    r.text("start_network", config.startNetwork);
    if (config.startNetwork == "embedded") config.startNetwork.clear();
    r.integer("nice", config.nice, 0, 19);
    json defaults = r.has("defaults") ? r.at("defaults") : json::object();
    if (!defaults.is_object()) fail("config.defaults", "expected an object");
    if (!r.has("generations") || !r.at("generations").is_array() || r.at("generations").empty())
        fail("config.generations", "expected a non-empty list");
    std::set<std::string> names;
    const json& list = r.at("generations");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "config.generations[" + std::to_string(i) + "]";
        if (!list[i].is_object()) fail(where, "expected an object");
        json entry = list[i];
        // "repeat": N generations of this entry, named NAME-1..NAME-N, each with its datagen
        // seeds moved on by seed_step (and the gate's and trainer's seeds by 1): new data each.
        std::int64_t repeat = 1, seedStep = 1000;
        if (entry.contains("repeat")) {
            const json& v = entry["repeat"];
            if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 ||
                v.get<std::uint64_t>() > 1000)
                fail(where + ".repeat", "expected an integer 1..1000");
            repeat = v.get<std::int64_t>();
            entry.erase("repeat");
        }
        if (entry.contains("seed_step")) {
            const json& v = entry["seed_step"];
            if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 ||
                v.get<std::uint64_t>() > (std::uint64_t(1) << 32))
                fail(where + ".seed_step", "expected a positive integer");
            seedStep = v.get<std::int64_t>();
            entry.erase("seed_step");
        }
        json merged = defaults;
        merged.merge_patch(entry);
        for (std::int64_t k = 0; k < repeat; ++k) {
            json one = merged;
            if (repeat > 1) {
                if (!one.contains("name") || !one["name"].is_string())
                    fail(where + ".name", "expected a string");
                one["name"] = one["name"].get<std::string>() + "-" + std::to_string(k + 1);
                if (one.contains("datagen") && one["datagen"].is_object() &&
                    one["datagen"].contains("seeds") && one["datagen"]["seeds"].is_array())
                    for (json& s : one["datagen"]["seeds"])
                        if (s.is_number_unsigned())
                            s = s.get<std::uint64_t>() + std::uint64_t(k * seedStep);
                if (!one.contains("gate")) one["gate"] = json::object();
                // A seed of the wrong type is left for readGate to refuse.
                if (one["gate"].is_object() &&
                    (!one["gate"].contains("seed") || one["gate"]["seed"].is_number_unsigned())) {
                    const std::uint64_t seed =
                        one["gate"].contains("seed") ? one["gate"]["seed"].get<std::uint64_t>() : 1;
                    one["gate"]["seed"] = seed + std::uint64_t(k);
                }
            }
            Generation g = readGeneration(one, where);
            if (!names.insert(g.name).second)
                fail(where + ".name", "the generation name '" + g.name + "' is used twice");
            config.generations.push_back(std::move(g));
        }
    }
    return config;
}

} // namespace

util::Result<GrowConfig> parseGrowConfig(std::string_view text) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) { // a syntax error, or a number beyond a double
        return util::makeError(std::string("not valid JSON: ") + e.what());
    }
    try {
        return readConfig(root);
    } catch (const ConfigError& e) {
        return util::makeError(e.message);
    } catch (const json::exception& e) {
        return util::makeError(std::string("config: ") + e.what());
    }
}

namespace {

// Removes every "comment" key, at any depth: comments say why, they change nothing the loop does.
void eraseComments(json& value) {
    if (value.is_object()) {
        value.erase("comment");
        for (auto& [key, child] : value.items()) eraseComments(child);
    } else if (value.is_array()) {
        for (auto& child : value) eraseComments(child);
    }
}

} // namespace

bool sameSettingsBeside(std::string_view resolvedA, std::string_view resolvedB,
                        std::initializer_list<const char*> keys) {
    json a = json::parse(resolvedA, nullptr, false);
    json b = json::parse(resolvedB, nullptr, false);
    if (!a.is_object() || !b.is_object()) return false;
    for (const char* key : keys) {
        a.erase(key);
        b.erase(key);
    }
    eraseComments(a);
    eraseComments(b);
    return a == b;
}

} // namespace axon::grow
