// SPDX-License-Identifier: GPL-3.0-or-later
// The trainer: analytic gradients against finite differences, training and inference
// indexing features alike, the shuffle serving every record once per pass, loss going down on
// a small data set, a trained network telling won from lost, exact resume, determinism, and
// the linear PST model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "chess/fen.h"
#include "data/output_lock.h"
#include "data/record_file.h"
#include "nn/accumulator.h"
#include "nn/network_file.h"
#include "nn/safetensors_network.h"
#include "test_helpers.h"
#include "train/checkpoint.h"
#include "train/dataset.h"
#include "train/features.h"
#include "train/linear_model.h"
#include "train/perspective_model.h"
#include "train/synthetic_data.h"
#include "train/trainer.h"

namespace axon::train {
namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) { return test::scratchDir("train-" + name); }

// Shared synthetic data files (positions from random playouts, scored by the eval): training
// and, from other games, validation.
const std::string& syntheticFile(bool validation = false) {
    static const std::string dir = tempDir("data");
    static const std::string train = [] {
        const std::string p = dir + "/train.axd";
        EXPECT_FALSE(writeSyntheticData(p, 60000, 7).has_value());
        return p;
    }();
    static const std::string val = [] {
        const std::string p = dir + "/val.axd";
        EXPECT_FALSE(writeSyntheticData(p, 6000, 8).has_value());
        return p;
    }();
    return validation ? val : train;
}

nn::Architecture tinyArch(bool mirror, int inputBuckets, int outputBuckets) {
    nn::Architecture a;
    a.hidden = 32;
    a.mirror = mirror;
    a.inputBuckets = inputBuckets;
    a.bucketMap = nn::evenBucketMap(inputBuckets);
    a.outputBuckets = outputBuckets;
    return a;
}

// The smallest layered shape: hidden 64 (split into pairwise halves), a stack of 16 -> 4.
nn::Architecture tinyLayeredArch(int outputBuckets) {
    nn::Architecture a = tinyArch(true, 4, outputBuckets);
    a.hidden = 64;
    a.l1 = 16;
    a.l2 = 4;
    return a;
}

TrainConfig smallRun(const std::string& out) {
    TrainConfig c;
    c.data = {syntheticFile()};
    c.out = out;
    c.arch = tinyArch(false, 1, 1);
    c.threads = 1;
    c.batchSize = 256;
    c.superbatchPositions = 256 * 10;
    c.superbatches = 6;
    c.valFiles = {syntheticFile(true)};
    c.lr = 0.01;
    c.schedule = LrSchedule::Step;
    c.stepEvery = 2;
    c.gamma = 0.5;
    c.chunkRecords = 4000;
    c.bufferChunks = 2;
    c.quiet = true;
    return c;
}

std::vector<std::uint8_t> fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The summed loss of the samples at `params`.
double totalLoss(const Model& m, const std::vector<Sample>& samples,
                 const std::vector<float>& params, const LossConfig& loss) {
    std::vector<float> scratch;
    double sum = 0;
    for (const Sample& s : samples)
        sum += lossAndGradient(loss, m.output(s, params.data(), scratch),
                               lossTarget(loss, s.score, s.result))
                   .loss;
    return sum;
}

// `scale` multiplies the initial weights: a layer stack's output barely moves at its
// initialisation, and probes need gradients well above the finite differences' noise.
void checkGradients(const Model& model, const LossConfig& loss, float scale = 1.0f,
                    float eps = 1e-3f) {
    const auto records = makeSyntheticRecords(24, 3);
    std::vector<Sample> samples(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        extractSample(model.featureArch(), records[i], samples[i]);
    const ParameterLayout& layout = model.layout();
    std::vector<float> params(layout.total);
    model.initialise(params, 11);
    // Non-zero biases so their gradients matter; small enough to keep most units unclipped.
    for (std::size_t i = 0; i < layout.total; ++i)
        params[i] = params[i] == 0 ? 0.05f * float(int(i % 7) - 3) : params[i] * scale;
    Gradients grad(layout);
    std::vector<float> scratch;
    model.accumulate(samples, params.data(), grad, loss, 1.0f, scratch);

    // Parameters to probe: in each segment, the entries with the largest gradients (rows of
    // active features for the feature transformer) and one with none.
    int checked = 0;
    for (const Segment& seg : layout.segments) {
        std::vector<std::size_t> order(seg.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = seg.offset + i;
        std::partial_sort(order.begin(), order.begin() + std::min<std::size_t>(4, order.size()),
                          order.end(), [&](std::size_t a, std::size_t b) {
                              return std::fabs(grad.values[a]) > std::fabs(grad.values[b]);
                          });
        for (std::size_t k = 0; k < std::min<std::size_t>(4, order.size()); ++k) {
            const std::size_t i = order[k];
            auto plus = params, minus = params;
            plus[i] += eps;
            minus[i] -= eps;
            const double numeric =
                (totalLoss(model, samples, plus, loss) - totalLoss(model, samples, minus, loss)) /
                (2.0 * eps);
            const double analytic = grad.values[i];
            EXPECT_NEAR(analytic, numeric, 0.03 * std::fabs(numeric) + 2e-4)
                << seg.name << " entry " << i - seg.offset;
            if (k == 0) {
                EXPECT_GT(std::fabs(numeric), 1e-3) << seg.name << ": probe one that matters";
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 4);
}

TEST(TrainGradient, PerspectiveNetworkMatchesFiniteDifferences) {
    for (const float power : {2.0f, 2.6f}) {
        LossConfig loss;
        loss.power = power;
        loss.wdl = 0.4f;
        checkGradients(PerspectiveModel(tinyArch(true, 4, 4), 1.98f), loss);
        checkGradients(PerspectiveModel(tinyArch(false, 1, 1), 1.98f), loss);
    }
}

TEST(TrainGradient, LayeredNetworkMatchesFiniteDifferences) {
    for (const float power : {2.0f, 2.6f}) {
        LossConfig loss;
        loss.power = power;
        loss.wdl = 0.4f;
        checkGradients(PerspectiveModel(tinyLayeredArch(1), 1.98f), loss, 3.0f, 1e-4f);
        checkGradients(PerspectiveModel(tinyLayeredArch(4), 1.98f), loss, 3.0f, 1e-4f);
    }
}

TEST(TrainGradient, LinearModelMatchesFiniteDifferences) {
    LossConfig loss;
    LinearModel model;
    const auto records = makeSyntheticRecords(24, 3);
    std::vector<Sample> samples(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        extractSample(model.featureArch(), records[i], samples[i]);
    std::vector<float> params(model.layout().total);
    for (std::size_t i = 0; i < params.size(); ++i) params[i] = 0.01f * float(int(i % 13) - 6);
    Gradients grad(model.layout());
    std::vector<float> scratch;
    model.accumulate(samples, params.data(), grad, loss, 1.0f, scratch);
    const std::size_t bias = model.layout().segments[LinearModel::kBias].offset;
    for (std::size_t i : {std::size_t(samples[0].features[0][0]), bias}) {
        auto plus = params, minus = params;
        plus[i] += 1e-3f;
        minus[i] -= 1e-3f;
        const double numeric =
            (totalLoss(model, samples, plus, loss) - totalLoss(model, samples, minus, loss)) / 2e-3;
        EXPECT_NEAR(grad.values[i], numeric, 0.03 * std::fabs(numeric) + 2e-4);
    }
}

// The trainer's forward pass is the float network's evaluation (nn::evaluateFloat) on the
// record's position: both index features through nn/arch.h.
TEST(TrainFeatures, ModelOutputEqualsFloatEvaluation) {
    const auto records = makeSyntheticRecords(200, 5);
    for (const auto& arch : {tinyArch(false, 1, 1), tinyArch(true, 4, 8), tinyArch(true, 16, 3),
                             tinyLayeredArch(1), tinyLayeredArch(8)}) {
        PerspectiveModel model(arch, 1.98f);
        std::vector<float> params(model.layout().total);
        model.initialise(params, 2);
        for (std::size_t i = 0; i < params.size(); ++i) params[i] += 0.001f * float(i % 5);
        const nn::FloatNetwork net = model.toFloatNetwork(params);
        std::vector<float> scratch;
        Sample s;
        for (const auto& r : records) {
            extractSample(arch, r, s);
            const chess::Position pos = test::fen(data::recordFen(r));
            EXPECT_NEAR(model.output(s, params.data(), scratch) * float(arch.scale),
                        nn::evaluateFloat(net, pos), 0.01f)
                << data::recordFen(r);
        }
    }
}

// One data file, no validation split, the shuffle's chunks and buffer as given.
TrainConfig shuffledFile(const std::string& file, const std::string& out, int chunkRecords,
                         int bufferChunks) {
    TrainConfig c;
    c.data = {file};
    c.out = out;
    c.valFraction = 0;
    c.chunkRecords = chunkRecords;
    c.bufferChunks = bufferChunks;
    return c;
}

TEST(TrainData, ShuffleServesEveryRecordOncePerPassAndSeeksExactly) {
    const auto all = makeSyntheticRecords(1000, 9);
    const std::string dir = tempDir("shuffle");
    ASSERT_EQ(data::writeAllRecords(dir + "/a.axd", all), "");
    TrainConfig c = shuffledFile(dir + "/a.axd", dir, 64, 3);
    c.scoreLimit = 32767;
    auto data = TrainingData::open(c);
    ASSERT_TRUE(data) << data.error();
    BatchLoader loader(**data, c);
    std::vector<data::TrainingRecord> pass(all.size());
    ASSERT_TRUE(loader.next(pass));
    auto key = [](const data::TrainingRecord& r) {
        return std::string(reinterpret_cast<const char*>(&r), sizeof r);
    };
    std::map<std::string, int> want, got;
    for (const auto& r : all) ++want[key(r)];
    for (const auto& r : pass) ++got[key(r)];
    EXPECT_EQ(want, got);
    EXPECT_NE(pass, all) << "not shuffled";

    std::vector<data::TrainingRecord> a(300), b(300), c2(300);
    ASSERT_TRUE(loader.next(a));
    const LoaderCursor cursor = loader.cursor();
    ASSERT_TRUE(loader.next(b));
    BatchLoader other(**data, c);
    ASSERT_TRUE(other.seek(cursor));
    ASSERT_TRUE(other.next(c2));
    EXPECT_EQ(b, c2);
    std::vector<data::TrainingRecord> second(all.size());
    BatchLoader fresh(**data, c);
    ASSERT_TRUE(fresh.next(pass));
    ASSERT_TRUE(fresh.next(second));
    EXPECT_NE(pass, second) << "each pass should have its own order";
}

TEST(TrainData, ScoreFilterAndValidationSplit) {
    auto all = makeSyntheticRecords(1000, 4);
    all[10].score = 20000;
    all[11].score = -20000;
    const std::string dir = tempDir("filter");
    ASSERT_EQ(data::writeAllRecords(dir + "/a.axd", all), "");
    TrainConfig c;
    c.data = {dir};
    c.out = dir + "/out";
    c.valFraction = 0.1;
    auto data = TrainingData::open(c);
    ASSERT_TRUE(data) << data.error();
    EXPECT_EQ((*data)->trainCount(), 900u);
    EXPECT_EQ((*data)->validationCount(), 100u);
    BatchLoader loader(**data, c);
    std::vector<data::TrainingRecord> pass(898);
    ASSERT_TRUE(loader.next(pass));
    for (const auto& r : pass) EXPECT_LE(std::abs(int(r.score)), c.scoreLimit);
    EXPECT_EQ(loader.stats().rejected, 2u);
}

// The loader validates a chunk's records until a load finds them all valid, then checks only
// their scores: a chunk with an invalid record must keep it out on every pass, not only the first.
TEST(TrainData, InvalidRecordsStayOutOnEveryPass) {
    auto all = makeSyntheticRecords(600, 6);
    all[5].result = data::GameResult(7); // not a result
    all[300].score = 20000;              // over the score limit
    all[301].pieces[15] = 0xF0;          // a piece code beyond the piece count
    const std::string dir = tempDir("invalid");
    ASSERT_EQ(data::writeAllRecords(dir + "/a.axd", all), "");
    const TrainConfig c = shuffledFile(dir + "/a.axd", dir + "/out", 50, 2);
    auto data = TrainingData::open(c);
    ASSERT_TRUE(data) << data.error();
    BatchLoader loader(**data, c);
    std::vector<data::TrainingRecord> pass(597);
    for (int p = 1; p <= 3; ++p) {
        ASSERT_TRUE(loader.next(pass));
        for (const auto& r : pass) {
            EXPECT_FALSE(data::validateRecord(r)) << "pass " << p;
            EXPECT_LE(std::abs(int(r.score)), c.scoreLimit) << "pass " << p;
        }
        EXPECT_EQ(loader.stats().rejected, 3u * unsigned(p)) << "pass " << p;
    }
}

// Loss falls on held-out data, and the network written to disk (read back by the engine's
// loader) scores a position a queen up above one a queen down.
TEST(TrainLoop, LossFallsAndTheNetworkKnowsMaterial) {
    const std::string dir = tempDir("loop");
    TrainConfig c = smallRun(dir);
    c.threads = 2;
    c.superbatches = 10;
    c.schedule = LrSchedule::Cosine;
    auto summary = runTraining(c);
    ASSERT_TRUE(summary) << summary.error();
    ASSERT_EQ(summary->history.size(), 10u);
    const double before = summary->initialValLoss;
    const double after = summary->history.back().valLoss;
    EXPECT_GT(before, 0);
    EXPECT_LT(after, 0.75 * before) << "validation loss " << before << " -> " << after;
    EXPECT_LT(summary->history.back().trainLoss, summary->history.front().trainLoss);
    for (const char* f : {"final.nnue", "checkpoint.bin", "history.csv", "loss.svg"})
        EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;

    auto net = nn::readNetworkFile(dir + "/final.nnue");
    ASSERT_TRUE(net) << net.error();
    const int won = nn::evaluateReference(*net, test::fen("3qk3/8/8/8/8/8/1QQ5/4K3 w - - 0 1"));
    const int lost = nn::evaluateReference(*net, test::fen("3qk3/1qq5/8/8/8/8/8/3QK3 w - - 0 1"));
    EXPECT_GT(won, lost + 100) << "won " << won << " lost " << lost;
    const int upQueen = nn::evaluateReference(*net, test::fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"));
    EXPECT_LT(upQueen, 0) << "Black to move, White a queen up";
}

// The layer stack learns too: the same run with a stack, written as a version-2 file.
TEST(TrainLoop, LayeredNetworkLearnsMaterial) {
    const std::string dir = tempDir("loop-layered");
    TrainConfig c = smallRun(dir);
    c.arch = tinyLayeredArch(1);
    c.threads = 2;
    c.superbatches = 10;
    c.schedule = LrSchedule::Cosine;
    auto summary = runTraining(c);
    ASSERT_TRUE(summary) << summary.error();
    EXPECT_LT(summary->history.back().valLoss, 0.75 * summary->initialValLoss);
    auto net = nn::readNetworkFile(dir + "/final.nnue");
    ASSERT_TRUE(net) << net.error();
    EXPECT_EQ(net->arch.l1, 16);
    const int won = nn::evaluateReference(*net, test::fen("3qk3/8/8/8/8/8/1QQ5/4K3 w - - 0 1"));
    const int lost = nn::evaluateReference(*net, test::fen("3qk3/1qq5/8/8/8/8/8/3QK3 w - - 0 1"));
    EXPECT_GT(won, lost + 100) << "won " << won << " lost " << lost;
}

TEST(TrainLoop, ResumeReproducesTheUninterruptedRun) {
    const std::string whole = tempDir("whole"), parts = tempDir("parts");
    TrainConfig c = smallRun(whole);
    c.arch = tinyArch(true, 2, 2);
    ASSERT_TRUE(runTraining(c));

    TrainConfig first = smallRun(parts);
    first.arch = c.arch;
    first.stopAfter = 3;
    ASSERT_TRUE(runTraining(first));
    EXPECT_FALSE(fs::exists(parts + "/final.nnue"));
    TrainConfig rest = smallRun(parts);
    rest.arch = c.arch;
    rest.seed = 2;
    rest.resume = true;
    auto refused = runTraining(rest);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("seed"), std::string::npos) << refused.error();
    rest.seed = c.seed;
    auto resumed = runTraining(rest);
    ASSERT_TRUE(resumed) << resumed.error();
    EXPECT_EQ(resumed->history.size(), 6u);

    EXPECT_EQ(fileBytes(whole + "/final.nnue"), fileBytes(parts + "/final.nnue"));
    auto a = readCheckpoint(whole + "/checkpoint.bin");
    auto b = readCheckpoint(parts + "/checkpoint.bin");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->params, b->params);
    EXPECT_EQ(a->m, b->m);
    EXPECT_EQ(a->v, b->v);
    EXPECT_EQ(a->cursor, b->cursor);

    // A fresh run into a directory with a checkpoint is refused rather than overwriting it.
    auto again = runTraining(smallRun(whole));
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().find("--resume"), std::string::npos);
}

// A run aimed at the folder another run is training into stops before reading or writing
// anything (data/output_lock.h).
TEST(TrainLoop, AFolderInUseIsRefused) {
    const std::string dir = tempDir("in-use");
    auto other = data::OutputLock::acquire(dir, "axon train");
    ASSERT_TRUE(other) << other.error();
    auto refused = runTraining(smallRun(dir));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("in use by another running axon train"), std::string::npos)
        << refused.error();
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST(TrainLoop, SameSeedAndThreadsGiveTheSameNetwork) {
    const std::string a = tempDir("det_a"), b = tempDir("det_b");
    TrainConfig ca = smallRun(a), cb = smallRun(b);
    ca.threads = cb.threads = 2;
    ca.superbatches = cb.superbatches = 2;
    ASSERT_TRUE(runTraining(ca));
    ASSERT_TRUE(runTraining(cb));
    EXPECT_EQ(fileBytes(a + "/final.nnue"), fileBytes(b + "/final.nnue"));
}

TEST(TrainLoop, CheckpointRejectsDamage) {
    const std::string dir = tempDir("ckpt");
    TrainConfig c = smallRun(dir);
    c.superbatches = 1;
    ASSERT_TRUE(runTraining(c));
    auto bytes = fileBytes(dir + "/checkpoint.bin");
    std::string s(bytes.begin(), bytes.end());
    EXPECT_TRUE(parseCheckpoint(s));
    EXPECT_FALSE(parseCheckpoint(s.substr(0, s.size() - 100)));
    s[s.size() / 2] ^= 1;
    EXPECT_FALSE(parseCheckpoint(s));
}

TEST(TrainLoop, LinearModelLearnsPieceValues) {
    const std::string dir = tempDir("linear");
    TrainConfig c = smallRun(dir);
    c.model = ModelKind::Linear;
    c.lr = 0.02;
    c.superbatches = 30;
    c.stepEvery = 0;
    c.weightDecay = 0;
    auto summary = runTraining(c);
    ASSERT_TRUE(summary) << summary.error();
    EXPECT_LT(summary->history.back().valLoss, 0.75 * summary->initialValLoss);
    std::ifstream in(dir + "/final-pst.csv");
    std::string line;
    std::map<std::string, double> sums;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string side, piece, rank, v;
        std::getline(ss, side, ',');
        std::getline(ss, piece, ',');
        std::getline(ss, rank, ',');
        if (side != "own") continue;
        double sum = 0;
        while (std::getline(ss, v, ',')) sum += std::stod(v);
        sums[piece] += sum;
    }
    // Average over the squares a piece can stand on (pawns: ranks 2..7).
    EXPECT_GT(sums["queen"] / 64, 2 * sums["pawn"] / 48 + 50)
        << "queen " << sums["queen"] / 64 << " pawn " << sums["pawn"] / 48;
}

// --init: a run starts from the given network's weights. With a learning rate far below one
// quantisation step the network written back is the starting network, byte for byte, from the
// engine's file and from a float safetensors file alike; the validation loss before the first
// step is the trained network's, far below a random start's.
TEST(TrainInit, StartsFromTheGivenNetwork) {
    const std::string from = tempDir("init-from"), again = tempDir("init-again"),
                      floats = tempDir("init-floats"), fresh = tempDir("init-fresh");
    TrainConfig c = smallRun(from);
    c.arch = tinyArch(true, 2, 2);
    auto trained = runTraining(c);
    ASSERT_TRUE(trained) << trained.error();

    TrainConfig still = smallRun(again);
    still.arch = c.arch;
    still.superbatches = 1;
    still.lr = 1e-9;
    still.weightDecay = 0;
    still.init = from + "/final.nnue";
    auto started = runTraining(still);
    ASSERT_TRUE(started) << started.error();
    EXPECT_EQ(fileBytes(from + "/final.nnue"), fileBytes(again + "/final.nnue"));

    TrainConfig random = smallRun(fresh);
    random.arch = c.arch;
    random.superbatches = 1;
    auto randomStart = runTraining(random);
    ASSERT_TRUE(randomStart) << randomStart.error();
    EXPECT_LT(started->initialValLoss, 0.8 * randomStart->initialValLoss)
        << "init " << started->initialValLoss << " random " << randomStart->initialValLoss;
    EXPECT_NEAR(started->initialValLoss, trained->history.back().valLoss,
                0.05 * trained->history.back().valLoss);

    // With shapeFromInit the run takes the starting network's shape, whatever its own says.
    TrainConfig adopt = still;
    adopt.out = tempDir("init-adopt");
    adopt.arch = tinyArch(false, 1, 1);
    adopt.shapeFromInit = true;
    auto adopted = runTraining(adopt);
    ASSERT_TRUE(adopted) << adopted.error();
    EXPECT_EQ(fileBytes(from + "/final.nnue"), fileBytes(adopt.out + "/final.nnue"));

    auto net = nn::readNetworkFile(from + "/final.nnue");
    ASSERT_TRUE(net) << net.error();
    const std::string stFile = floats + "/start.safetensors";
    ASSERT_FALSE(nn::writeFloatNetworkSafetensors(nn::dequantise(*net), stFile).has_value());
    TrainConfig fromFloats = still;
    fromFloats.out = floats + "/run";
    fromFloats.init = stFile;
    auto floatStart = runTraining(fromFloats);
    ASSERT_TRUE(floatStart) << floatStart.error();
    EXPECT_EQ(fileBytes(from + "/final.nnue"), fileBytes(floats + "/run/final.nnue"));
}

TEST(TrainInit, RefusesWhatItCannotStartFrom) {
    const std::string from = tempDir("init-src");
    TrainConfig c = smallRun(from);
    c.arch = tinyArch(true, 2, 2);
    c.superbatches = 1;
    ASSERT_TRUE(runTraining(c));
    const std::string good = from + "/final.nnue";
    auto refusal = [&](TrainConfig run) {
        auto r = runTraining(run);
        EXPECT_FALSE(r);
        return r ? std::string() : r.error();
    };

    TrainConfig other = smallRun(tempDir("init-arch"));
    other.init = good; // its shape is mirrored with 2 + 2 buckets, the run's is not
    std::string e = refusal(other);
    EXPECT_NE(e.find("another architecture"), std::string::npos) << e;
    EXPECT_NE(e.find("mirrored"), std::string::npos) << e;

    TrainConfig maps = smallRun(tempDir("init-map"));
    maps.arch = c.arch;
    maps.arch.bucketMap[0] = 1;
    maps.init = good;
    e = refusal(maps);
    EXPECT_NE(e.find("bucket maps differ"), std::string::npos) << e;

    TrainConfig linear = smallRun(tempDir("init-linear"));
    linear.model = ModelKind::Linear;
    linear.init = good;
    e = refusal(linear);
    EXPECT_NE(e.find("linear"), std::string::npos) << e;

    TrainConfig missing = smallRun(tempDir("init-missing"));
    missing.arch = c.arch;
    missing.init = from + "/no-such.nnue";
    e = refusal(missing);
    EXPECT_NE(e.find("no-such.nnue"), std::string::npos) << e;

    const auto bytes = fileBytes(good);
    const std::string cut = from + "/cut.nnue";
    std::ofstream(cut, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size() / 2));
    TrainConfig damaged = smallRun(tempDir("init-damaged"));
    damaged.arch = c.arch;
    damaged.init = cut;
    e = refusal(damaged);
    EXPECT_NE(e.find("cut.nnue"), std::string::npos) << e;
    // A refused run stops before it creates or writes anything.
    EXPECT_FALSE(fs::exists(damaged.out + "/checkpoint.bin"));
}

TEST(TrainConfigCheck, RejectsBadSettings) {
    TrainConfig c;
    c.data = {"x"};
    c.out = "y";
    EXPECT_FALSE(validateConfig(c));
    c.arch.hidden = 33;
    EXPECT_TRUE(validateConfig(c));
    c.arch.hidden = 64;
    c.wdl = 2;
    EXPECT_TRUE(validateConfig(c));
    c.wdl = 0.5;
    c.threads = 0;
    EXPECT_TRUE(validateConfig(c));
    EXPECT_FALSE(parseBucketMap("1,2", 4));
    EXPECT_TRUE(parseBucketMap("even", 4));
}

} // namespace
} // namespace axon::train
