// SPDX-License-Identifier: GPL-3.0-or-later
// state.json of `axon grow`: written whole through util::writeFileAtomically, read back with
// every field checked.
#include "grow/grow_state.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "util/atomic_file.h"

namespace axon::grow {

namespace {

using nlohmann::json;

constexpr int kStateVersion = 1;

// A diverged run's loss is not finite; JSON has no NaN, so it is kept as -1 ("none").
double finiteOrNone(double x) { return std::isfinite(x) ? x : -1.0; }
double lossFrom(const json& j) { return j.is_null() ? -1.0 : j.get<double>(); }

json costJson(const StepCost& c) { return {{"cpu_s", c.cpuSeconds}, {"wall_s", c.wallSeconds}}; }
StepCost costFrom(const json& j) {
    return {j.at("cpu_s").get<double>(), j.at("wall_s").get<double>()};
}

const char* kVerdicts[] = {"running", "H1", "H0", "max-games", "stopped", "skipped"};

GateVerdict verdictFrom(const std::string& text) {
    for (int i = 0; i < int(std::size(kVerdicts)); ++i)
        if (text == kVerdicts[i]) return GateVerdict(i);
    throw std::runtime_error("unknown gate verdict '" + text + "'");
}

json gateJson(const GateOutcome& x) {
    return {{"verdict", toString(x.verdict)},
            {"wdl", {x.wins, x.draws, x.losses}},
            {"pentanomial", x.pentanomial},
            {"elo", finiteOrNone(x.elo)},
            {"error95", finiteOrNone(x.error95)},
            {"llr", finiteOrNone(x.llr)},
            {"cost", costJson(x.cost)}};
}

GateOutcome gateFrom(const json& x) {
    GateOutcome g;
    g.verdict = verdictFrom(x.at("verdict").get<std::string>());
    const auto wdl = x.at("wdl").get<std::array<std::int64_t, 3>>();
    g.wins = wdl[0];
    g.draws = wdl[1];
    g.losses = wdl[2];
    g.pentanomial = x.at("pentanomial").get<std::array<std::int64_t, 5>>();
    g.elo = x.at("elo").get<double>();
    g.error95 = x.at("error95").get<double>();
    g.llr = x.at("llr").get<double>();
    g.cost = costFrom(x.at("cost"));
    return g;
}

} // namespace

const char* toString(GateVerdict verdict) { return kVerdicts[int(verdict)]; }

std::optional<std::string> saveGrowState(const GrowState& state, const std::string& path) {
    json gens = json::array();
    for (const GenerationState& g : state.generations) {
        json cands = json::array();
        for (const CandidateState& c : g.candidates) {
            const TrainOutcome& t = c.train;
            cands.push_back({{"name", c.name},
                             {"train",
                              {{"done", t.done},
                               {"superbatches", t.superbatches},
                               {"train_positions", t.trainPositions},
                               {"train_loss", finiteOrNone(t.trainLoss)},
                               {"val_loss", finiteOrNone(t.valLoss)},
                               {"cost", costJson(t.cost)}}},
                             {"prescreen", gateJson(c.prescreen)},
                             {"prescreen_odds", c.prescreenOdds},
                             {"gate", gateJson(c.gate)}});
        }
        gens.push_back({{"name", g.name},
                        {"resolved", g.resolved},
                        {"data_done", g.dataDone},
                        {"positions", g.positions},
                        {"data_cost", costJson(g.dataCost)},
                        {"label_done", g.labelDone},
                        {"label_cost", costJson(g.labelCost)},
                        {"label_ratio", g.labelRatio},
                        {"candidates", cands},
                        {"best_before", g.bestBefore},
                        {"best_after", g.bestAfter},
                        {"promoted", g.promoted},
                        {"done", g.done}});
    }
    const json root = {{"axon_grow_state", kStateVersion}, {"generations", gens}};
    return util::writeFileAtomically(path, root.dump(2) + "\n");
}

util::Result<GrowState> loadGrowState(const std::string& path) {
    GrowState state;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return state;
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::makeError("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    try {
        const json root = json::parse(text.str());
        if (root.at("axon_grow_state").get<int>() != kStateVersion)
            return util::makeError(path + ": an unknown state version");
        for (const json& g : root.at("generations")) {
            GenerationState s;
            s.name = g.at("name").get<std::string>();
            s.resolved = g.at("resolved").get<std::string>();
            s.dataDone = g.at("data_done").get<bool>();
            s.positions = g.at("positions").get<std::uint64_t>();
            s.dataCost = costFrom(g.at("data_cost"));
            // States written before the label step have none.
            if (g.contains("label_done")) {
                s.labelDone = g.at("label_done").get<bool>();
                s.labelCost = costFrom(g.at("label_cost"));
                s.labelRatio = g.at("label_ratio").get<double>();
            }
            for (const json& c : g.at("candidates")) {
                CandidateState cs;
                cs.name = c.at("name").get<std::string>();
                const json& t = c.at("train");
                cs.train.done = t.at("done").get<bool>();
                cs.train.superbatches = t.at("superbatches").get<int>();
                cs.train.trainPositions = t.at("train_positions").get<std::uint64_t>();
                cs.train.trainLoss = lossFrom(t.at("train_loss"));
                cs.train.valLoss = lossFrom(t.at("val_loss"));
                cs.train.cost = costFrom(t.at("cost"));
                // States written before pre-screens existed have none.
                if (c.contains("prescreen")) cs.prescreen = gateFrom(c.at("prescreen"));
                if (c.contains("prescreen_odds"))
                    cs.prescreenOdds = c.at("prescreen_odds").get<double>();
                cs.gate = gateFrom(c.at("gate"));
                s.candidates.push_back(std::move(cs));
            }
            s.bestBefore = g.at("best_before").get<std::string>();
            s.bestAfter = g.at("best_after").get<std::string>();
            s.promoted = g.at("promoted").get<std::string>();
            s.done = g.at("done").get<bool>();
            state.generations.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        return util::makeError(path + ": damaged (" + e.what() +
                               "); it is written only by "
                               "axon grow, in one piece");
    }
    return state;
}

} // namespace axon::grow
