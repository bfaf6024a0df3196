// SPDX-License-Identifier: GPL-3.0-or-later
// The steps of one generation (data, teacher labels, training, gates, promotion) over the
// datagen, labeller, trainer and match libraries, in this process, with the state saved after
// each.
#include "grow/grow_loop.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <vector>

#include "data/convert.h"
#include "data/datagen.h"
#include "data/in_process_teacher.h"
#include "data/labeler.h"
#include "data/output_lock.h"
#include "data/record_file.h"
#include "grow/gate.h"
#include "grow/grow_report.h"
#include "grow/grow_state.h"
#include "grow/speed_ratio.h"
#include "match/engine_pool.h"
#include "match/time_control.h"
#include "nn/network_file.h"
#include "train/trainer.h"
#include "util/atomic_file.h"
#include "util/parallel.h"
#include "util/progress_format.h"

namespace axon::grow {

namespace fs = std::filesystem;

namespace {

// CPU seconds of this process and of the children it has waited for (the gate's engines).
double cpuSecondsSoFar() {
    auto seconds = [](const rusage& u) {
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    };
    rusage self{}, children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    return seconds(self) + seconds(children);
}

// Measures one step into `cost` when it goes out of scope (a stopped step's share included).
class CostMeter {
  public:
    explicit CostMeter(StepCost& cost)
        : m_cost(cost), m_cpu(cpuSecondsSoFar()), m_start(std::chrono::steady_clock::now()) {}
    ~CostMeter() {
        m_cost.cpuSeconds += cpuSecondsSoFar() - m_cpu;
        m_cost.wallSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    CostMeter(const CostMeter&) = delete;
    CostMeter& operator=(const CostMeter&) = delete;

  private:
    StepCost& m_cost;
    double m_cpu;
    std::chrono::steady_clock::time_point m_start;
};

std::string join(const fs::path& a, const std::string& b) { return (a / b).string(); }

// The state of a generation's candidates before any of their steps.
std::vector<CandidateState> freshCandidates(const Generation& gen) {
    std::vector<CandidateState> candidates(gen.candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) candidates[c].name = gen.candidates[c].name;
    return candidates;
}

std::string runDir(const std::string& work, const Generation& g, std::uint64_t seed) {
    return join(fs::path(work) / g.name / "data", "s" + std::to_string(seed));
}

// The record file that a generation's convert entry `k` becomes.
std::string convertedFile(const std::string& work, const Generation& g, std::size_t k) {
    return join(fs::path(work) / g.name / "data", "convert-" + std::to_string(k) + ".bin");
}

// Where a generation with a teacher (Generation::label) keeps the labelled copy of one of its
// data files: the same path under GEN/label instead of GEN/data.
std::string labelledFile(const std::string& work, const Generation& g, const std::string& file) {
    const fs::path data = fs::path(work) / g.name / "data";
    return (fs::path(work) / g.name / "label" / fs::path(file).lexically_relative(data)).string();
}

// The record files of one directory (datagen's chunks), in name order.
std::vector<std::string> recordFiles(const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file(ec) && (ext == ".bin" || ext == ".axd" || ext == ".data"))
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

class Generations {
  public:
    Generations(const GrowConfig& config, const GrowOptions& options, GrowState& state,
                const std::atomic<bool>& stop)
        : m_config(config), m_options(options), m_state(state), m_stop(stop),
          m_statePath(join(options.workDir, "state.json")) {}

    util::Result<bool> run() {
        std::string best = absoluteOrEmpty(m_config.startNetwork);
        if (m_state.generations.size() > m_config.generations.size())
            return util::makeError(m_statePath + " has more generations than the configuration");
        for (const std::string& name : m_options.stopGates) {
            std::size_t k = 0;
            while (k < m_state.generations.size() && m_state.generations[k].name != name) ++k;
            if (k == m_state.generations.size())
                return util::makeError("--stop-gate " + name + ": no such generation has started");
        }
        for (std::size_t i = 0; i < m_config.generations.size(); ++i) {
            const Generation& gen = m_config.generations[i];
            if (i < m_state.generations.size()) {
                GenerationState& gs = m_state.generations[i];
                if (gs.name != gen.name)
                    return util::makeError(
                        "generation " + std::to_string(i + 1) + " is '" + gen.name +
                        "' in the configuration but '" + gs.name + "' in " + m_statePath +
                        ": a started run's generations cannot be renamed or reordered");
                if (gs.resolved != gen.resolved) {
                    auto e = amendStarted(gen, gs);
                    if (!e) return util::makeError(e.error());
                }
                if (gs.resolved != gen.resolved)
                    return util::makeError(
                        "generation '" + gen.name + "' started with other settings (" +
                        m_statePath + "): restore them, or add a new generation instead\n  was: " +
                        gs.resolved + "\n  now: " + gen.resolved);
                if (gs.bestBefore != best)
                    return util::makeError("generation '" + gen.name + "' started from " +
                                           describe(gs.bestBefore) + ", not " + describe(best));
            } else {
                GenerationState gs;
                gs.name = gen.name;
                gs.resolved = gen.resolved;
                gs.bestBefore = best;
                gs.candidates = freshCandidates(gen);
                m_state.generations.push_back(std::move(gs));
                if (auto e = save()) return util::makeError(*e);
            }
            GenerationState& gs = m_state.generations[i];
            if (std::find(m_options.stopGates.begin(), m_options.stopGates.end(), gen.name) !=
                m_options.stopGates.end())
                if (auto e = stopGates(gen, gs)) return util::makeError(*e);
            if (!gs.done) {
                say("generation " + gen.name + " (" + std::to_string(i + 1) + "/" +
                    std::to_string(m_config.generations.size()) + "), playing with " +
                    describe(best));
                auto finished = runGeneration(i, gen, gs, best);
                if (!finished) return finished;
                if (!*finished) return false;
            }
            best = gs.bestAfter;
        }
        return true;
    }

  private:
    static std::string absoluteOrEmpty(const std::string& path) {
        return path.empty() ? path : fs::absolute(path).lexically_normal().string();
    }
    static std::string describe(const std::string& network) {
        return network.empty() ? "the embedded network" : network;
    }
    void say(const std::string& line) const {
        if (m_options.say) m_options.say("grow: " + line);
    }
    std::optional<std::string> save() {
        if (auto e = saveGrowState(m_state, m_statePath)) return e;
        return writeGrowReport(m_config, m_state, m_options.workDir);
    }

    // False when stopped.
    util::Result<bool> runGeneration(std::size_t index, const Generation& gen, GenerationState& gs,
                                     const std::string& best) {
        if (!gs.dataDone) {
            auto done = generateData(gen, gs, best);
            if (!done) return done;
            if (auto e = save()) return util::makeError(*e);
            if (!*done) return false;
            gs.dataDone = true;
            if (auto e = save()) return util::makeError(*e);
        }
        if (gen.label.enabled() && !gs.labelDone) {
            auto done = label(gen, gs, best);
            if (!done) return done;
            if (auto e = save()) return util::makeError(*e);
            if (!*done) return false;
            gs.labelDone = true;
            if (auto e = save()) return util::makeError(*e);
        }
        for (std::size_t c = 0; c < gen.candidates.size(); ++c) {
            CandidateState& cs = gs.candidates[c];
            if (cs.train.done) continue;
            auto done = train(index, gen, gen.candidates[c], cs, best);
            if (!done) return done;
            if (auto e = save()) return util::makeError(*e);
            if (!*done) return false;
        }
        const PrescreenPlan& pre = gen.gate.prescreen;
        const bool prescreened = pre.games > 0;
        if (prescreened) {
            for (std::size_t c = 0; c < gen.candidates.size(); ++c) {
                CandidateState& cs = gs.candidates[c];
                // A gate already decided (stopped by the user) needs no pre-screen.
                if (cs.prescreen.verdict != GateVerdict::Running ||
                    cs.gate.verdict != GateVerdict::Running)
                    continue;
                auto done = prescreen(gen, gen.candidates[c], cs, best);
                if (!done) return done;
                if (auto e = save()) return util::makeError(*e);
                if (!*done) return false;
            }
        }
        // With a pre-screen, the candidates above its bound are gated in the order of their
        // pre-screen Elo (the more precise ranking), and the first the gate accepts wins: the
        // others' gates, hours at a time control, would only choose between two improvements.
        std::vector<std::size_t> order(gen.candidates.size());
        for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
        if (prescreened)
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return gs.candidates[a].prescreen.elo > gs.candidates[b].prescreen.elo;
            });
        for (std::size_t c : order) {
            CandidateState& cs = gs.candidates[c];
            if (cs.gate.verdict != GateVerdict::Running) continue;
            if (prescreened) {
                std::string why;
                if (cs.prescreen.verdict == GateVerdict::AcceptH0) {
                    char text[128];
                    std::snprintf(text, sizeof text,
                                  "its pre-screen's SPRT accepted H0 (Elo %+.1f)",
                                  cs.prescreen.elo);
                    why = text;
                } else if (!(cs.prescreen.elo > pre.minElo)) {
                    char text[128];
                    std::snprintf(text, sizeof text,
                                  "its pre-screen's Elo %+.1f is not above %+.1f", cs.prescreen.elo,
                                  pre.minElo);
                    why = text;
                }
                for (const CandidateState& other : gs.candidates)
                    if (other.gate.verdict == GateVerdict::AcceptH1)
                        why = other.name + "'s gate accepted it first";
                if (!why.empty()) {
                    cs.gate.verdict = GateVerdict::Skipped;
                    say(gen.name + ": " + cs.name + " is not gated: " + why);
                    if (auto e = save()) return util::makeError(*e);
                    continue;
                }
            }
            auto done = gate(gen, gen.candidates[c], cs, best);
            if (!done) return done;
            if (auto e = save()) return util::makeError(*e);
            if (!*done) return false;
        }
        // The winner: the accepted candidate with the highest Elo against the best.
        const CandidateState* winner = nullptr;
        for (const CandidateState& cs : gs.candidates)
            if (cs.gate.verdict == GateVerdict::AcceptH1 &&
                (!winner || cs.gate.elo > winner->gate.elo))
                winner = &cs;
        gs.bestAfter = best;
        gs.promoted.clear();
        if (winner) {
            const std::string from =
                join(fs::path(m_options.workDir) / gen.name / "train" / winner->name, "final.nnue");
            const std::string to =
                absoluteOrEmpty(join(fs::path(m_options.workDir) / gen.name, "best.nnue"));
            auto bytes = nn::readFileBytes(from);
            if (!bytes) return util::makeError(bytes.error());
            if (auto e = util::writeFileAtomically(to, std::span<const std::uint8_t>(*bytes)))
                return util::makeError(*e);
            gs.bestAfter = to;
            gs.promoted = winner->name;
            say(gen.name + ": " + winner->name + " is the new best network (" + to + ")");
        } else {
            say(gen.name + ": no candidate passed its gate; the best network stays " +
                describe(best));
        }
        gs.done = true;
        if (auto e = save()) return util::makeError(*e);
        return true;
    }

    // The generation's data: self-play, then the converted files. False when stopped.
    util::Result<bool> generateData(const Generation& gen, GenerationState& gs,
                                    const std::string& best) {
        CostMeter meter(gs.dataCost);
        gs.positions = 0;
        if (!gen.datagen.seeds.empty()) {
            auto made = selfPlay(gen, gs, best);
            if (!made || !*made) return made;
        }
        for (std::size_t k = 0; k < gen.convert.size() && !m_stop.load(); ++k) {
            auto converted = convert(gen, k);
            if (!converted) return util::makeError(converted.error());
            gs.positions += *converted;
        }
        return !m_stop.load();
    }

    // Converts entry `k` of the generation, unless its file exists (the driver writes it whole
    // or not at all); the records in the file.
    util::Result<std::uint64_t> convert(const Generation& gen, std::size_t k) {
        const ConvertPlan& plan = gen.convert[k];
        const std::string out = convertedFile(m_options.workDir, gen, k);
        std::error_code ec;
        if (!fs::exists(out, ec)) {
            say(gen.name + ": converting " + std::to_string(plan.inputs.size()) + " " + plan.from +
                " file(s) into " + out);
            fs::create_directories(fs::path(out).parent_path(), ec);
            data::ConvertConfig c;
            c.from = *data::parseDataFormat(plan.from);
            c.to = data::DataFormat::Axon;
            c.inputs = plan.inputs;
            c.output = out;
            c.pgn.minElo = plan.minElo;
            c.pgn.maxElo = plan.maxElo;
            c.pgn.skipPlies = plan.skipPlies;
            c.pgn.skipCheck = plan.skipCheck;
            c.pgn.skipCaptures = plan.skipCaptures;
            auto stats = data::runConvert(c);
            if (!stats) return util::makeError(gen.name + ": convert: " + stats.error());
        }
        auto reader = data::RecordReader::open(out);
        if (!reader) return util::makeError(reader.error());
        return (*reader)->count();
    }

    // The generation's data files, one list per self-play run or converted entry: the units
    // the label step labels with one set of teachers and the training takes chunks from.
    // Self-play's and converted files as made; dataRuns: with a teacher, their labelled copies.
    std::vector<std::vector<std::string>> sourceRuns(const Generation& gen) const {
        std::vector<std::vector<std::string>> runs;
        for (std::uint64_t seed : gen.datagen.seeds)
            runs.push_back(recordFiles(runDir(m_options.workDir, gen, seed)));
        for (std::size_t k = 0; k < gen.convert.size(); ++k)
            runs.push_back({convertedFile(m_options.workDir, gen, k)});
        return runs;
    }
    // (Read from GEN/label alone, so the self-play's own files may go once labelled.)
    std::vector<std::vector<std::string>> dataRuns(const Generation& gen) const {
        if (!gen.label.enabled()) return sourceRuns(gen);
        const std::string& work = m_options.workDir;
        std::vector<std::vector<std::string>> runs;
        for (std::uint64_t seed : gen.datagen.seeds)
            runs.push_back(recordFiles(labelledFile(work, gen, runDir(work, gen, seed))));
        for (std::size_t k = 0; k < gen.convert.size(); ++k)
            runs.push_back({labelledFile(work, gen, convertedFile(work, gen, k))});
        return runs;
    }

    // The teacher's scores for every data file of the generation, run by run (each run's
    // chunks through one set of teacher processes, resumable from its parts folder, then
    // written chunk for chunk under GEN/label). False when stopped.
    util::Result<bool> label(const Generation& gen, GenerationState& gs, const std::string& best) {
        CostMeter meter(gs.labelCost);
        const LabelPlan& plan = gen.label;
        match::EngineConfig teacher;
        teacher.command = plan.command;
        teacher.options = plan.options;
        // "axon": this binary's search in this process, with the best network unless the
        // options name one (data::InProcessTeacher); the manifest names that network's path.
        const bool inProcess = plan.inProcess();
        std::string network = best; // the in-process teacher's; empty: the embedded one
        if (inProcess) {
            const auto named =
                std::find_if(teacher.options.begin(), teacher.options.end(),
                             [](const auto& option) { return option.first == "EvalFile"; });
            if (named != teacher.options.end())
                network = named->second;
            else if (!best.empty())
                teacher.options.emplace_back("EvalFile", best);
        }
        data::LabelConfig c;
        c.limit.depth = plan.depth;
        c.limit.nodes = plan.nodes;
        c.jobs = plan.jobs;
        c.inFlight = plan.inFlight;
        c.scoreFactor = plan.scoreFactor;
        c.teacherDescription = data::describeTeacher(teacher);
        const std::vector<std::vector<std::string>> runs = sourceRuns(gen);
        say(gen.name + ": labelling " + std::to_string(gs.positions) + " positions with " +
            (inProcess ? "this binary's search in process (" +
                             (network.empty() ? std::string("the embedded network") : network) + ")"
                       : plan.command) +
            " at " + c.limit.describe() + ", " + std::to_string(plan.jobs) + " teacher(s)");
        for (std::size_t r = 0; r < runs.size(); ++r) {
            if (runs[r].empty()) continue;
            c.inputs = runs[r];
            c.outputs.clear();
            bool done = true;
            std::error_code ec;
            for (const std::string& file : runs[r]) {
                c.outputs.push_back(labelledFile(m_options.workDir, gen, file));
                done = done && fs::exists(c.outputs.back(), ec);
            }
            // The run's parts and lock: GEN/label/<run>.parts.
            const fs::path first = fs::path(c.outputs.front());
            c.output = (r < gen.datagen.seeds.size() ? first.parent_path()
                                                     : first.parent_path() / first.stem())
                           .string();
            if (done && !fs::exists(c.output + ".parts", ec)) continue;
            fs::create_directories(first.parent_path(), ec);
            data::LabelCallbacks callbacks;
            callbacks.progressSeconds = m_options.progressSeconds;
            const std::string where =
                gen.name + ": label " + std::to_string(r + 1) + "/" + std::to_string(runs.size());
            callbacks.onProgress = [&](const data::LabelStats& st) {
                const double rate = util::ratePerSecond(double(st.processed), st.seconds);
                char line[200];
                std::snprintf(
                    line, sizeof line,
                    "%s: %" PRIu64 "/%" PRIu64 " positions (%.1f%%), %.0f/s, ETA %s", where.c_str(),
                    st.processed, st.pending,
                    st.pending ? 100.0 * double(st.processed) / double(st.pending) : 0.0, rate,
                    util::formatDuration(
                        rate > 0 ? (double(st.pending) - double(st.processed)) / rate : -1)
                        .c_str());
                say(line);
            };
            callbacks.onReport = [&](const std::string& line) { say(where + ": " + line); };
            auto stats = data::runLabel(c,
                                        inProcess ? data::inProcessTeacherFactory(teacher.options)
                                                  : match::uciEngineFactory(teacher),
                                        m_stop, callbacks);
            if (!stats) return util::makeError(gen.name + ": label: " + stats.error());
            if (stats->interrupted || m_stop.load()) return false;
        }
        // The labels' scale against the self-play's own scores, from the files (the first
        // 1000 records of each, in order): the same figure however often the step resumed.
        std::vector<std::string> inputs, labelled;
        for (const auto& run : runs)
            for (const std::string& file : run) {
                inputs.push_back(file);
                labelled.push_back(labelledFile(m_options.workDir, gen, file));
            }
        auto fit = data::scaleFitOfFiles(inputs, labelled, plan.scoreFactor, 1000);
        if (!fit) return util::makeError(gen.name + ": label: " + fit.error());
        gs.labelRatio = fit->ratio().value_or(0);
        char text[160];
        std::snprintf(text, sizeof text,
                      "%s: labels done; the written scores are %.3f x the self-play's own",
                      gen.name.c_str(), gs.labelRatio);
        say(text);
        return !m_stop.load();
    }

    // Every seed's datagen run, `jobs` at a time. False when stopped.
    util::Result<bool> selfPlay(const Generation& gen, GenerationState& gs,
                                const std::string& best) {
        const DatagenPlan& plan = gen.datagen;
        const std::uint64_t total = plan.positions * plan.seeds.size();
        say(gen.name + ": datagen, " + std::to_string(plan.seeds.size()) + " run(s) of " +
            std::to_string(plan.positions) + " positions at " + std::to_string(plan.softNodes) +
            " soft nodes");
        std::mutex mutex;
        std::vector<std::uint64_t> doneByRun(plan.seeds.size(), 0), madeByRun(plan.seeds.size(), 0);
        std::vector<double> secondsByRun(plan.seeds.size(), 0);
        // The first line after one interval: by then every running run has reported its
        // resumed positions, so the total is right from the first line.
        auto lastLine = std::chrono::steady_clock::now();
        std::string error;
        bool stopped = false;
        for (std::size_t first = 0; first < plan.seeds.size() && error.empty() && !stopped;
             first += std::size_t(plan.jobs)) {
            const std::size_t last = std::min(plan.seeds.size(), first + std::size_t(plan.jobs));
            util::parallelFor(int(last - first), [&](int job) {
                const std::size_t r = first + std::size_t(job);
                data::DatagenConfig c;
                c.outDir = runDir(m_options.workDir, gen, plan.seeds[r]);
                c.threads = plan.threads;
                c.positions = plan.positions;
                c.seed = plan.seeds[r];
                c.softNodes = plan.softNodes;
                c.hardNodes = plan.hardNodes;
                c.randomPlies = plan.randomPlies;
                c.book = plan.book;
                c.dfrcFraction = plan.dfrc;
                c.filter.keepNoisy = plan.keepNoisy;
                c.hashMb = plan.hashMb;
                c.chunkPositions = plan.chunkPositions;
                c.syzygyPath = plan.syzygy;
                c.network = plan.network.empty() ? best : plan.network;
                data::DatagenCallbacks callbacks;
                callbacks.progressSeconds = std::min(m_options.progressSeconds, 5.0);
                callbacks.onWarning = [&](const std::string& w) { say(gen.name + ": " + w); };
                callbacks.onProgress = [&, r](const data::DatagenStats& s) {
                    const std::lock_guard lock(mutex);
                    doneByRun[r] = s.resumedPositions + s.generated;
                    madeByRun[r] = s.generated;
                    secondsByRun[r] = s.seconds;
                    const auto now = std::chrono::steady_clock::now();
                    if (std::chrono::duration<double>(now - lastLine).count() <
                        m_options.progressSeconds)
                        return;
                    lastLine = now;
                    double done = 0, rate = 0;
                    for (std::size_t k = 0; k < doneByRun.size(); ++k) {
                        done += double(doneByRun[k]);
                        rate += util::ratePerSecond(double(madeByRun[k]), secondsByRun[k]);
                    }
                    char line[200];
                    std::snprintf(
                        line, sizeof line,
                        "%s: datagen %.0f/%" PRIu64 " positions (%.1f%%), %.0f/s, ETA %s",
                        gen.name.c_str(), done, total, 100.0 * done / double(total), rate,
                        util::formatDuration(rate > 0 ? (double(total) - done) / rate : -1)
                            .c_str());
                    say(line);
                };
                auto result = data::runDatagen(c, m_stop, callbacks);
                const std::lock_guard lock(mutex);
                if (!result) {
                    if (error.empty()) error = c.outDir + ": " + result.error();
                    return;
                }
                if (result->interrupted) stopped = true;
                doneByRun[r] = result->resumedPositions + result->positions;
                // The rate is the running runs' sum: a finished run's would count twice, as
                // the next run's on the same core (it read 170,000/s for 56,000, 2026-12-07).
                madeByRun[r] = 0;
                secondsByRun[r] = 0;
            });
        }
        if (!error.empty()) return util::makeError(error);
        if (stopped || m_stop.load()) return false;
        for (std::uint64_t n : doneByRun) gs.positions += n;
        say(gen.name + ": datagen done, " + std::to_string(gs.positions) + " positions");
        return true;
    }

    // The training files (this generation's and the earlier ones' the plan takes, chunks taken
    // from the runs in turn) and the held-out validation files.
    void dataFor(std::size_t index, const TrainPlan& plan, std::vector<std::string>& train,
                 std::vector<std::string>& validation) const {
        const std::size_t first = plan.generations > 0 && index + 1 > std::size_t(plan.generations)
                                      ? index + 1 - std::size_t(plan.generations)
                                      : 0;
        std::vector<std::vector<std::string>> runs;
        std::size_t ownFirstRun = 0;
        for (std::size_t g = first; g <= index; ++g) {
            if (g == index) ownFirstRun = runs.size();
            for (auto& run : dataRuns(m_config.generations[g])) runs.push_back(std::move(run));
        }
        // The held-out chunks: the first of this generation's first self-play run, games no
        // network was trained on. (Without self-play the trainer holds out the end of every
        // file instead.)
        if (!m_config.generations[index].datagen.seeds.empty()) {
            std::vector<std::string>& own = runs[ownFirstRun];
            const std::size_t held = std::min(own.size(), std::size_t(plan.heldOutChunks));
            validation.assign(own.begin(), own.begin() + std::ptrdiff_t(held));
            own.erase(own.begin(), own.begin() + std::ptrdiff_t(held));
        }
        for (std::size_t k = 0;; ++k) {
            bool any = false;
            for (const auto& run : runs)
                if (k < run.size()) {
                    train.push_back(run[k]);
                    any = true;
                }
            if (!any) break;
        }
        for (const std::string& extra : plan.extraData) {
            std::error_code ec;
            if (fs::is_directory(extra, ec)) {
                for (const std::string& f : recordFiles(extra)) train.push_back(f);
            } else {
                train.push_back(extra);
            }
        }
    }

    util::Result<bool> train(std::size_t index, const Generation& gen, const Candidate& cand,
                             CandidateState& cs, const std::string& best) {
        const TrainPlan& plan = cand.train;
        train::TrainConfig c;
        dataFor(index, plan, c.data, c.valFiles);
        if (c.data.empty()) return util::makeError(gen.name + ": no training data");
        std::uint64_t positions = 0;
        for (const std::string& file : c.data) {
            auto reader = data::RecordReader::open(file);
            if (!reader) return util::makeError(reader.error());
            positions += (*reader)->count();
        }
        if (c.valFiles.empty())
            c.valFraction = 0.01;
        else
            c.valFraction = 0;
        c.out = join(fs::path(m_options.workDir) / gen.name / "train", cand.name);
        c.model = train::ModelKind::Perspective;
        c.arch = cand.arch;
        c.threads = plan.threads;
        c.batchSize = plan.batch;
        c.superbatchPositions = plan.superbatchPositions;
        const double superbatches =
            std::ceil(plan.passes * double(positions) / double(plan.superbatchPositions));
        if (superbatches > 1e6)
            return util::makeError(gen.name + "." + cand.name + ": " +
                                   std::to_string(superbatches) +
                                   " superbatches; raise superbatch_positions");
        c.superbatches = std::max(plan.minSuperbatches, int(superbatches));
        c.lr = plan.lr;
        c.schedule = train::LrSchedule::Cosine;
        c.finalLrFraction = plan.finalLrFraction;
        c.weightDecay = plan.weightDecay;
        c.wdl = plan.wdl;
        c.seed = plan.seed;
        if (plan.initFromBest) {
            if (best.empty())
                return util::makeError(gen.name + "." + cand.name +
                                       ": train.init \"best\" needs the best network as a file "
                                       "(start_network)");
            c.init = best;
        }
        std::error_code ec;
        c.resume = fs::exists(train::checkpointPath(c), ec);
        say(gen.name + ": training " + cand.name + " (" + std::to_string(cand.arch.hidden) +
            " hidden) on " + std::to_string(positions) + " positions in " +
            std::to_string(c.data.size()) + " files" +
            (gen.label.enabled() ? " (this generation's labelled by its teacher)" : "") + ", " +
            std::to_string(c.superbatches) + " superbatches" + (c.resume ? ", resumed" : ""));
        train::TrainHooks hooks;
        const std::string prefix = gen.name + " train " + cand.name + ": ";
        hooks.progress = [&](const std::string& line) { say(prefix + line); };
        hooks.shouldStop = [&] { return m_stop.load(); };
        CostMeter meter(cs.train.cost);
        auto summary = train::runTraining(c, hooks);
        if (!summary) return util::makeError(gen.name + "." + cand.name + ": " + summary.error());
        if (summary->stopped) return false;
        cs.train.done = true;
        cs.train.superbatches = c.superbatches;
        cs.train.trainPositions = positions;
        if (!summary->history.empty()) {
            cs.train.trainLoss = summary->history.back().trainLoss;
            cs.train.valLoss = summary->history.back().valLoss;
        }
        return true;
    }

    // A started generation whose configuration changed where it still may: its comments at any
    // time (they change nothing it does), its labels, training and candidates before its first
    // label or training run, its gate before its first pre-screen or gate game. The steps'
    // directories are made before their first superbatch or block, so a kill before the state
    // recorded anything still counts as begun. Otherwise the settings stay as they were and run()
    // refuses the change.
    util::Result<bool> amendStarted(const Generation& gen, GenerationState& gs) {
        std::error_code ec;
        const fs::path dir = fs::path(m_options.workDir) / gen.name;
        // The labels are what the training reads: they may change until either has begun.
        const bool trainingBegun = fs::exists(dir / "train", ec) || fs::exists(dir / "label", ec);
        const bool gateBegun = fs::exists(dir / "gate", ec) || fs::exists(dir / "prescreen", ec);
        if (sameSettingsBeside(gs.resolved, gen.resolved, {})) {
            say("generation " + gen.name + ": only its comments changed");
        } else if (!trainingBegun && sameSettingsBeside(gs.resolved, gen.resolved,
                                                        {"label", "train", "candidates", "gate"})) {
            gs.candidates = freshCandidates(gen);
            gs.labelDone = false;
            say("generation " + gen.name +
                ": its labels, training, candidates or gate changed before its first label or "
                "training run; the new settings apply");
        } else if (!gateBegun && sameSettingsBeside(gs.resolved, gen.resolved, {"gate"})) {
            say("generation " + gen.name +
                ": its gate settings changed before its first gate game; the new ones apply");
        } else {
            return false;
        }
        gs.resolved = gen.resolved;
        if (auto e = save()) return util::makeError(*e);
        return true;
    }

    GateEngines gateEngines(const Generation& gen, const Candidate& cand,
                            const std::string& best) const {
        GateEngines engines;
        engines.command = m_options.engineCommand;
        engines.candidateName = gen.name + "-" + cand.name;
        engines.candidateNetwork = absoluteOrEmpty(
            join(fs::path(m_options.workDir) / gen.name / "train" / cand.name, "final.nnue"));
        engines.bestName = "best";
        engines.bestNetwork = best;
        return engines;
    }

    // Plays (or resumes) one match of blocks into `result`; true when it has its verdict.
    util::Result<bool> playBlocks(const GatePlan& plan, const GateEngines& engines,
                                  const std::string& dir, const std::string& label,
                                  GateOutcome& result) {
        StepCost cost = result.cost;
        util::Result<GateOutcome> outcome = util::makeError("not played");
        {
            CostMeter meter(cost);
            outcome = runGate(plan, engines, dir, m_stop,
                              [&](const std::string& text) { say(label + text); });
        }
        if (!outcome) return util::makeError(outcome.error());
        result = *outcome;
        result.cost = cost;
        return result.verdict != GateVerdict::Running;
    }

    util::Result<bool> prescreen(const Generation& gen, const Candidate& cand, CandidateState& cs,
                                 const std::string& best) {
        const PrescreenPlan& pre = gen.gate.prescreen;
        char length[96];
        if (pre.sprt)
            std::snprintf(length, sizeof length, "SPRT [%.1f, %.1f], at most %d games",
                          pre.sprt->elo0, pre.sprt->elo1, pre.games);
        else
            std::snprintf(length, sizeof length, "%d games", pre.games);
        char line[512];
        std::snprintf(line, sizeof line,
                      ": pre-screen of %s against %s, %s%s, %s (gated if above %+.1f Elo)",
                      cand.name.c_str(), describe(best).c_str(), pre.limit.c_str(),
                      pre.equalTime ? " at equal time" : "", length, pre.minElo);
        say(gen.name + line);
        const std::string dir =
            join(fs::path(m_options.workDir) / gen.name / "prescreen", cand.name);
        GateEngines engines = gateEngines(gen, cand, best);
        if (pre.equalTime) {
            if (cs.prescreenOdds <= 0) {
                StepCost cost = cs.prescreen.cost;
                util::Result<SpeedRatio> speed = util::makeError("not measured");
                {
                    CostMeter meter(cost);
                    speed = measureSpeedRatio(engines.candidateNetwork, best, pre.speedRounds,
                                              pre.speedDepth);
                }
                if (!speed)
                    return util::makeError(gen.name + "." + cand.name + ": " + speed.error());
                cs.prescreen.cost = cost;
                // Bounded: a measurement gone wrong must not turn the match into a farce.
                cs.prescreenOdds = std::clamp(speed->ratio, 0.25, 4.0);
                char text[160];
                std::snprintf(text, sizeof text,
                              ": %s searches at %.3f of the best network's speed (%" PRIu64
                              " against %" PRIu64 " nps, bench)",
                              cand.name.c_str(), speed->ratio, speed->candidateNps, speed->bestNps);
                say(gen.name + text);
                if (auto e = save()) return util::makeError(*e);
            }
            const std::int64_t nodes = match::parseTimeControl(pre.limit)->nodes;
            engines.candidateLimit =
                "nodes=" + std::to_string(std::max<std::int64_t>(
                               1, std::llround(double(nodes) * cs.prescreenOdds)));
        }
        return playBlocks(prescreenPlan(gen.gate), engines, dir,
                          gen.name + " pre-screen " + cand.name + ": ", cs.prescreen);
    }

    util::Result<bool> gate(const Generation& gen, const Candidate& cand, CandidateState& cs,
                            const std::string& best) {
        const std::string dir = join(fs::path(m_options.workDir) / gen.name / "gate", cand.name);
        char line[200];
        std::snprintf(line, sizeof line,
                      ": gate of %s against %s, %s, SPRT [%.1f, %.1f], at most %d games",
                      cand.name.c_str(), describe(best).c_str(), gen.gate.limit.c_str(),
                      gen.gate.sprt.elo0, gen.gate.sprt.elo1, gen.gate.maxGames);
        say(gen.name + line);
        return playBlocks(gen.gate, gateEngines(gen, cand, best), dir,
                          gen.name + " gate " + cand.name + ": ", cs.gate);
    }

    // `axon grow --stop-gate GEN`: the generation's gates still running end as "stopped" with
    // the games their blocks hold, so the loop promotes none of them and goes on.
    std::optional<std::string> stopGates(const Generation& gen, GenerationState& gs) {
        if (gs.done) return "generation '" + gen.name + "' is done: no gate to stop";
        for (std::size_t c = 0; c < gen.candidates.size(); ++c) {
            CandidateState& cs = gs.candidates[c];
            if (!cs.train.done)
                return "generation '" + gen.name + "': " + cs.name +
                       " is still to be trained; its gate has not started";
        }
        int stopped = 0;
        for (std::size_t c = 0; c < gen.candidates.size(); ++c) {
            CandidateState& cs = gs.candidates[c];
            if (cs.gate.verdict != GateVerdict::Running) continue;
            const std::string dir = join(fs::path(m_options.workDir) / gen.name / "gate", cs.name);
            auto blocks = readGateBlocks(gen.gate, dir);
            if (!blocks) return blocks.error();
            const StepCost cost = cs.gate.cost;
            cs.gate = *blocks;
            cs.gate.cost = cost;
            cs.gate.verdict = GateVerdict::Stopped;
            ++stopped;
            char line[200];
            std::snprintf(line, sizeof line,
                          " stopped by the user after %" PRId64 " games: Elo %+.1f +/- %.1f",
                          cs.gate.wins + cs.gate.draws + cs.gate.losses, cs.gate.elo,
                          cs.gate.error95);
            say(gen.name + ": the gate of " + cs.name + line);
        }
        if (stopped == 0) return "generation '" + gen.name + "' has no running gate to stop";
        return save();
    }

    const GrowConfig& m_config;
    const GrowOptions& m_options;
    GrowState& m_state;
    const std::atomic<bool>& m_stop;
    std::string m_statePath;
};

} // namespace

util::Result<bool> runGrow(const GrowConfig& config, const GrowOptions& options,
                           const std::atomic<bool>& stop) {
    std::error_code ec;
    fs::create_directories(options.workDir, ec);
    if (ec) return util::makeError("cannot create " + options.workDir + ": " + ec.message());
    // Held to the end: two runs in one directory would write each other's state.
    auto lock = data::OutputLock::acquire(options.workDir, "axon grow");
    if (!lock) return util::makeError(lock.error());
    auto state = loadGrowState(join(options.workDir, "state.json"));
    if (!state) return util::makeError(state.error());
    Generations generations(config, options, *state, stop);
    return generations.run();
}

} // namespace axon::grow
