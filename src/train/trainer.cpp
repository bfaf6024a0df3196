// SPDX-License-Identifier: GPL-3.0-or-later
// The training loop.
#include "train/trainer.h"
#include "util/atomic_file.h"
#include "util/progress_format.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "data/output_lock.h"
#include "train/checkpoint.h"
#include "train/dataset.h"
#include "train/initial_network.h"
#include "train/linear_model.h"
#include "train/model.h"
#include "train/optimiser.h"
#include "train/perspective_model.h"
#include "train/schedule.h"
#include "util/parallel.h"

namespace axon::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using util::parallelFor;
using util::partBegin;

namespace {

// Samples are extracted in small blocks that stay in the L1 cache while the model reads them.
constexpr std::size_t kSampleBlock = 32;

std::string joinPath(const std::string& dir, const std::string& name) {
    return (fs::path(dir) / name).string();
}

LossConfig lossConfigFor(const TrainConfig& c) {
    LossConfig l;
    l.wdl = float(c.wdl);
    l.scaleK = float(c.scaleK);
    l.power = float(c.power);
    l.netScale = float(c.arch.scale);
    return l;
}

// Mean loss over `records` (forward only), split over the threads.
double meanLoss(const Model& model, const std::vector<data::TrainingRecord>& records,
                const float* params, const LossConfig& loss, int threads) {
    if (records.empty()) return -1;
    std::vector<double> sums(std::size_t(threads), 0.0);
    parallelFor(threads, [&](int t) {
        std::vector<float> scratch;
        Sample s;
        const std::size_t b = partBegin(records.size(), threads, t);
        const std::size_t e = partBegin(records.size(), threads, t + 1);
        double sum = 0;
        for (std::size_t i = b; i < e; ++i) {
            extractSample(model.featureArch(), records[i], s);
            const float out = model.output(s, params, scratch);
            sum += lossAndGradient(loss, out, lossTarget(loss, s.score, s.result)).loss;
        }
        sums[std::size_t(t)] = sum;
    });
    double total = 0;
    for (double s : sums) total += s;
    return total / double(records.size());
}

class Outputs {
  public:
    Outputs(const TrainConfig& c, const Model& m, const TrainHooks& h)
        : m_config(c), m_model(m), m_hooks(h) {}

    // Writes the network (or PST table) to `path` and, for networks, the float hook's file.
    std::optional<std::string> write(const std::vector<float>& params, const std::string& path) {
        if (m_config.model == ModelKind::Linear) {
            const auto& seg = m_model.layout().segments;
            const std::span<const float> w(params.data() + seg[LinearModel::kWeights].offset,
                                           seg[LinearModel::kWeights].size());
            return util::writeFileAtomically(
                path,
                pstTableCsv(w, params[seg[LinearModel::kBias].offset], float(m_config.arch.scale)));
        }
        const auto& pm = static_cast<const PerspectiveModel&>(m_model);
        const nn::FloatNetwork net = pm.toFloatNetwork(params);
        if (auto e = writeQuantisedNetwork(net, path)) return e;
        if (m_hooks.floatWriter)
            return m_hooks.floatWriter(net, fs::path(path).replace_extension());
        return std::nullopt;
    }

  private:
    const TrainConfig& m_config;
    const Model& m_model;
    const TrainHooks& m_hooks;
};

} // namespace

std::string checkpointPath(const TrainConfig& c) { return joinPath(c.out, "checkpoint.bin"); }

std::string superbatchOutputPath(const TrainConfig& c, int superbatch) {
    char name[64];
    std::snprintf(name, sizeof name,
                  c.model == ModelKind::Linear ? "pst-sb%04d.csv" : "net-sb%04d.nnue", superbatch);
    return joinPath(c.out, name);
}

std::string finalOutputPath(const TrainConfig& c) {
    return joinPath(c.out, c.model == ModelKind::Linear ? "final-pst.csv" : "final.nnue");
}

util::Result<TrainSummary> runTraining(const TrainConfig& requested, const TrainHooks& hooks) {
    TrainConfig config = requested;
    // A starting network (--init), read before anything else: its shape may become the run's,
    // and a wrong one stops the run before any data is read. Its weights replace the random
    // initialisation below; a resumed run takes its weights from the checkpoint instead.
    std::optional<nn::FloatNetwork> initial;
    if (!config.init.empty()) {
        if (config.model != ModelKind::Perspective)
            return util::makeError("--init needs the perspective network, not the linear model");
        auto net = readInitialNetwork(config.init);
        if (!net) return util::makeError(net.error());
        if (config.shapeFromInit) config.arch = net->arch;
        if (!(net->arch == config.arch)) {
            const std::string theirs = describeArchitecture(net->arch),
                              ours = describeArchitecture(config.arch);
            return util::makeError(
                "--init " + config.init + " has another architecture than this run: " + theirs +
                " against " + ours + (theirs == ours ? " (the king bucket maps differ)" : ""));
        }
        if (!config.resume) initial = std::move(*net);
    }
    if (auto e = validateConfig(config)) return util::makeError(*e);
    auto say = [&](const std::string& line) {
        if (hooks.progress && !config.quiet) hooks.progress(line);
    };
    std::error_code ec;
    fs::create_directories(config.out, ec);
    if (ec) return util::makeError("cannot create " + config.out + ": " + ec.message());
    // Held to the end: two runs would overwrite each other's checkpoints and networks.
    auto outputLock = data::OutputLock::acquire(config.out, "axon train");
    if (!outputLock) return util::makeError(outputLock.error());
    const std::string ckptPath = checkpointPath(config);
    if (!config.resume && fs::exists(ckptPath))
        return util::makeError(ckptPath + " exists: pass --resume to continue that run, or "
                                          "choose another --out");

    auto opened = TrainingData::open(config);
    if (!opened) return util::makeError(opened.error());
    const TrainingData& data = **opened;

    const auto model = makeModel(config);
    const ParameterLayout& layout = model->layout();
    std::vector<float> params(layout.total);
    model->initialise(params, config.seed);
    // The perspective network: --init is refused for the linear model above.
    if (initial) static_cast<const PerspectiveModel&>(*model).fromFloatNetwork(*initial, params);
    AdamW optimiser(layout, {float(config.beta1), float(config.beta2), float(config.epsilon),
                             float(config.weightDecay)});
    BatchLoader loader(data, config);
    const LossConfig lossConfig = lossConfigFor(config);
    const RecordFilter filter{config.scoreLimit};
    const std::int64_t batchesPer = config.batchesPer();

    TrainSummary summary;
    int firstSuperbatch = 0;
    double secondsBefore = 0, positionsBefore = 0;
    if (config.resume) {
        auto ckpt = readCheckpoint(ckptPath);
        if (!ckpt) return util::makeError(ckpt.error());
        auto mismatch = [&](const std::string& what) {
            return util::makeError("cannot resume " + ckptPath + ": its " + what +
                                   " differs from this run's");
        };
        if (ckpt->model != config.model) return mismatch("model (--arch)");
        if (config.model == ModelKind::Perspective && !(ckpt->arch == config.arch))
            return mismatch("network architecture");
        if (ckpt->seed != config.seed) return mismatch("seed");
        if (ckpt->batchSize != config.batchSize) return mismatch("batch size");
        if (ckpt->batchesPerSuperbatch != batchesPer) return mismatch("superbatch size");
        if (ckpt->trainRecords != data.trainCount()) return mismatch("training data size");
        if (ckpt->params.size() != params.size()) return mismatch("parameter count");
        // A run killed after its last checkpoint but before (or while) writing the final
        // network resumes to write it from the checkpoint: nothing is trained twice or lost.
        if (ckpt->superbatchesDone > config.superbatches)
            return util::makeError(ckptPath + " is past this run's end: it has done " +
                                   std::to_string(ckpt->superbatchesDone) + " superbatches, " +
                                   "more than --superbatches " +
                                   std::to_string(config.superbatches));
        params = ckpt->params;
        optimiser.firstMoments() = ckpt->m;
        optimiser.secondMoments() = ckpt->v;
        optimiser.setSteps(ckpt->adamSteps);
        if (auto s = loader.seek(ckpt->cursor); !s) return util::makeError(s.error());
        summary.history = ckpt->history;
        firstSuperbatch = ckpt->superbatchesDone;
        if (!summary.history.empty()) {
            secondsBefore = summary.history.back().seconds;
            positionsBefore = summary.history.back().positions;
        }
    }

    const auto validation = data.validationSample(config.valPositions, filter);
    summary.validationRecords = validation.size();
    if (!config.resume)
        summary.initialValLoss =
            meanLoss(*model, validation, params.data(), lossConfig, config.threads);

    say("training " + std::to_string(data.trainCount()) + " records in " +
        std::to_string(data.paths().size()) + " file(s), validation " +
        std::to_string(validation.size()) + ", " + std::to_string(layout.total) + " parameters, " +
        std::to_string(config.threads) + " thread(s)" +
        (summary.initialValLoss >= 0
             ? ", validation loss " + std::to_string(summary.initialValLoss) + " before training" +
                   (initial ? " (--init " + config.init + ")" : "")
             : std::string()));

    const int threads = config.threads;
    const auto threadCount = static_cast<std::size_t>(threads);
    std::vector<Gradients> grads(threadCount, Gradients(layout));
    std::vector<std::vector<float>> scratch(threadCount);
    std::vector<std::vector<Sample>> samples(threadCount, std::vector<Sample>(kSampleBlock));
    std::vector<double> lossParts(threadCount);
    std::vector<data::TrainingRecord> batch(std::size_t(config.batchSize));
    const float gradScale = 1.0f / float(config.batchSize);
    Outputs outputs(config, *model, hooks);

    const int lastSuperbatch = config.stopAfter > 0 ? config.stopAfter : config.superbatches;
    const double totalPositions =
        double(lastSuperbatch - firstSuperbatch) * double(batchesPer) * config.batchSize;
    double positionsThisRun = 0;
    const auto runStart = Clock::now();
    auto lastReport = runStart;

    for (int sb = firstSuperbatch; sb < lastSuperbatch; ++sb) {
        const float lr = float(learningRate(config, sb));
        const auto sbStart = Clock::now();
        double lossSum = 0;
        for (std::int64_t b = 0; b < batchesPer; ++b) {
            if (auto ok = loader.next(batch); !ok) return util::makeError(ok.error());
            parallelFor(threads, [&](int t) {
                const std::size_t begin = partBegin(batch.size(), threads, t);
                const std::size_t end = partBegin(batch.size(), threads, t + 1);
                auto& block = samples[std::size_t(t)];
                double sum = 0;
                for (std::size_t i = begin; i < end; i += kSampleBlock) {
                    const std::size_t n = std::min(kSampleBlock, end - i);
                    for (std::size_t k = 0; k < n; ++k)
                        extractSample(model->featureArch(), batch[i + k], block[k]);
                    sum += model->accumulate(std::span(block.data(), n), params.data(),
                                             grads[std::size_t(t)], lossConfig, gradScale,
                                             scratch[std::size_t(t)]);
                }
                lossParts[std::size_t(t)] = sum;
            });
            for (double part : lossParts) lossSum += part;
            optimiser.step(params, grads, lr, threads);
            positionsThisRun += double(batch.size());

            const auto now = Clock::now();
            if (hooks.progress && std::chrono::duration<double>(now - lastReport).count() >= 5.0) {
                lastReport = now;
                const double elapsed = std::chrono::duration<double>(now - runStart).count();
                const double rate = util::ratePerSecond(positionsThisRun, elapsed);
                char line[256];
                std::snprintf(
                    line, sizeof line,
                    "superbatch %d/%d batch %lld/%lld | %.0f pos/s | loss %.6f | "
                    "lr %.3g | ETA %s",
                    sb + 1, config.superbatches, (long long)(b + 1), (long long)batchesPer, rate,
                    lossSum / (double(b + 1) * config.batchSize), double(lr),
                    util::formatDuration(rate > 0 ? (totalPositions - positionsThisRun) / rate : -1)
                        .c_str());
                say(line);
            }
        }
        const double sbSeconds = std::chrono::duration<double>(Clock::now() - sbStart).count();
        const double sbPositions = double(batchesPer) * config.batchSize;
        HistoryRow row;
        row.superbatch = sb + 1;
        row.positions = positionsBefore + positionsThisRun;
        row.trainLoss = lossSum / sbPositions;
        row.valLoss = meanLoss(*model, validation, params.data(), lossConfig, threads);
        row.lr = lr;
        row.seconds =
            secondsBefore + std::chrono::duration<double>(Clock::now() - runStart).count();
        row.positionsPerSecond = sbPositions / sbSeconds;
        summary.history.push_back(row);
        {
            char line[256];
            std::snprintf(line, sizeof line,
                          "superbatch %d/%d done | train loss %.6f | val loss %.6f | %.0f pos/s",
                          row.superbatch, config.superbatches, row.trainLoss, row.valLoss,
                          row.positionsPerSecond);
            say(line);
        }

        const bool last = sb + 1 == lastSuperbatch;
        // A stop request ends the run at this superbatch's checkpoint, so --resume goes on
        // from exactly here.
        const bool stopping = !last && hooks.shouldStop && hooks.shouldStop();
        if ((sb + 1) % config.saveEvery == 0 || last || stopping) {
            if (auto e = outputs.write(params, superbatchOutputPath(config, sb + 1)))
                return util::makeError(*e);
            Checkpoint ckpt;
            ckpt.model = config.model;
            ckpt.arch = config.arch;
            ckpt.seed = config.seed;
            ckpt.batchSize = config.batchSize;
            ckpt.batchesPerSuperbatch = batchesPer;
            ckpt.trainRecords = data.trainCount();
            ckpt.superbatchesDone = sb + 1;
            ckpt.adamSteps = optimiser.steps();
            ckpt.cursor = loader.cursor();
            ckpt.history = summary.history;
            ckpt.params = params;
            ckpt.m = optimiser.firstMoments();
            ckpt.v = optimiser.secondMoments();
            if (auto e = writeCheckpoint(ckpt, ckptPath)) return util::makeError(*e);
            if (auto e = util::writeFileAtomically(joinPath(config.out, "history.csv"),
                                                   historyCsv(summary.history)))
                return util::makeError(*e);
            if (auto e = util::writeFileAtomically(joinPath(config.out, "loss.svg"),
                                                   historySvg(summary.history)))
                return util::makeError(*e);
        }
        if (stopping) {
            summary.finalOutput = superbatchOutputPath(config, sb + 1);
            summary.rejectedRecords = loader.stats().rejected;
            summary.stopped = true;
            return summary;
        }
    }
    if (lastSuperbatch == config.superbatches) {
        summary.finalOutput = finalOutputPath(config);
        if (auto e = outputs.write(params, summary.finalOutput)) return util::makeError(*e);
    } else {
        summary.finalOutput = superbatchOutputPath(config, lastSuperbatch);
    }
    summary.rejectedRecords = loader.stats().rejected;
    return summary;
}

} // namespace axon::train
