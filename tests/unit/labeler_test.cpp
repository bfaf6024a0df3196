// SPDX-License-Identifier: GPL-3.0-or-later
// The labeller: teacher scores (mates included), refusal of answers that would mislabel, and a
// run over a scripted teacher that crashes: restarted and retried once, then skipped.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "data/labeler.h"
#include "data/record_file.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace data;
namespace fs = std::filesystem;

match::SearchResult answer(std::optional<int> cp, std::optional<int> mate, std::string best) {
    match::SearchResult r;
    r.status = match::SearchStatus::Ok;
    r.scoreCp = cp;
    r.scoreMate = mate;
    r.bestMove = std::move(best);
    return r;
}

TEST(Labeler, TeacherScores) {
    EXPECT_EQ(teacherScore(answer(35, {}, "")), 35);
    EXPECT_EQ(teacherScore(answer(-99999, {}, "")), -32000);
    EXPECT_EQ(teacherScore(answer({}, 1, "")), 31999);
    EXPECT_EQ(teacherScore(answer({}, 3, "")), 31995);
    EXPECT_EQ(teacherScore(answer({}, -2, "")), -31996);
    EXPECT_EQ(teacherScore(answer({}, 0, "")), -32000);
}

// --score-factor scales centipawns (rounded, still clamped) and never a mate.
TEST(Labeler, ScoreFactorScalesCentipawnsOnly) {
    EXPECT_EQ(teacherScore(answer(35, {}, ""), 1.74), 61);
    EXPECT_EQ(teacherScore(answer(-35, {}, ""), 1.74), -61);
    EXPECT_EQ(teacherScore(answer(100, {}, ""), 0.5), 50);
    EXPECT_EQ(teacherScore(answer(30000, {}, ""), 2.0), 32000);
    EXPECT_EQ(teacherScore(answer(-30000, {}, ""), 2.0), -32000);
    EXPECT_EQ(teacherScore(answer({}, 3, ""), 2.0), 31995);
    EXPECT_EQ(teacherScore(answer({}, -2, ""), 0.5), -31996);
}

TEST(Labeler, AnswersThatWouldMislabelAreRefused) {
    const auto pos = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 30");
    auto good = labelFromAnswer(pos, answer(120, {}, "e2e4"), GameResult::Win, 58);
    ASSERT_TRUE(good.ok()) << good.error();
    EXPECT_EQ(good->score, 120);
    EXPECT_EQ(good->result, GameResult::Win);
    EXPECT_EQ(good->ply, 58);
    EXPECT_NE(good->bestMove, 0);
    EXPECT_FALSE(labelFromAnswer(pos, answer(120, {}, "e1e8"), GameResult::Win, 58).ok());
    EXPECT_FALSE(labelFromAnswer(pos, answer({}, {}, "e2e4"), GameResult::Win, 58).ok());
    // A mated position has no move to give.
    const auto mated = fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    auto none = labelFromAnswer(mated, answer({}, 0, "(none)"), GameResult::Loss, 1);
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(none->score, -32000);
    EXPECT_EQ(none->bestMove, 0);
}

// Answers "e2e3"-style first legal moves with a score from the FEN, and crashes on FENs that
// contain `crashOn` (`crashes` times in all, shared by every instance).
class ScriptedTeacher final : public match::Engine {
  public:
    ScriptedTeacher(std::string crashOn, std::shared_ptr<int> crashes)
        : m_crashOn(std::move(crashOn)), m_crashes(std::move(crashes)) {}
    bool ensureStarted() override { return true; }
    bool newGame() override { return true; }
    match::SearchResult search(const match::SearchRequest& request) override {
        match::SearchResult r;
        if (!m_crashOn.empty() && request.startFen.find(m_crashOn) != std::string::npos &&
            *m_crashes > 0) {
            --*m_crashes;
            r.status = match::SearchStatus::Crashed;
            r.error = "scripted crash";
            return r;
        }
        auto pos = chess::parseFen(request.startFen);
        r.status = match::SearchStatus::Ok;
        r.scoreCp = int(request.startFen.size());
        r.bestMove = pos && !chess::MoveList(*pos).empty()
                         ? chess::toUci(chess::MoveList(*pos)[0], false)
                         : "0000";
        return r;
    }
    void terminate() override {}
    const std::string& name() const override { return m_name; }
    const std::string& error() const override { return m_name; }

  private:
    std::string m_crashOn;
    std::shared_ptr<int> m_crashes;
    std::string m_name = "scripted";
};

struct LabelRun {
    util::Result<LabelStats> stats = util::makeError("not run");
    std::vector<std::string> reports;
};

LabelRun labelWith(const fs::path& dir, const std::string& crashOn, int crashes, int jobs,
                   const std::string& input = "in.epd", int inFlight = 1) {
    LabelConfig config;
    config.inputs = {(dir / input).string()};
    config.output = (dir / ("out-" + std::to_string(crashes) + "-" + std::to_string(jobs) + "-" +
                            std::to_string(inFlight) + ".bin"))
                        .string();
    config.limit.depth = 1;
    config.jobs = jobs;
    config.inFlight = inFlight;
    config.blockSize = 2;
    auto counter = std::make_shared<int>(crashes);
    std::atomic<bool> stop{false};
    LabelRun run;
    LabelCallbacks callbacks;
    callbacks.onReport = [&](const std::string& line) { run.reports.push_back(line); };
    run.stats = runLabel(
        config, [&] { return std::make_unique<ScriptedTeacher>(crashOn, counter); }, stop,
        callbacks);
    return run;
}

TEST(Labeler, CrashIsRetriedOnceThenSkippedAndReported) {
    const fs::path dir =
        fs::temp_directory_path() / ("axon-label-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    {
        std::ofstream in(dir / "in.epd");
        in << "# a comment\n"
              "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
              "4k3/8/8/8/8/8/4P3/4K3 w - - 0 30\n"
              "\n"
              "this is not a position\n"
              "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n" // mated: a score and no move
              "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n";
    }
    auto clean = labelWith(dir, "", 0, 1);
    ASSERT_TRUE(clean.stats.ok()) << clean.stats.error();
    EXPECT_EQ(clean.stats->inputs, 5u);
    EXPECT_EQ(clean.stats->labelled, 4u);
    EXPECT_EQ(clean.stats->skipped, 1u) << "the line that is no position";
    ASSERT_EQ(clean.reports.size(), 1u);
    EXPECT_NE(clean.reports[0].find("line 5"), std::string::npos) << clean.reports[0];
    auto cleanRecords = readAllRecords((dir / "out-0-1-1.bin").string());
    ASSERT_TRUE(cleanRecords.ok());
    ASSERT_EQ(cleanRecords->size(), 4u);
    EXPECT_EQ((*cleanRecords)[0].result, GameResult::Draw) << "EPD input has no result";
    EXPECT_EQ((*cleanRecords)[1].ply, 58);
    EXPECT_FALSE(fs::exists(dir / "out-0-1-1.bin.parts"));

    // One crash: restarted, retried, labelled the same. Two jobs keep the input order.
    auto once = labelWith(dir, "4k3/8/8/8/8/8/4P3/4K3", 1, 2);
    ASSERT_TRUE(once.stats.ok()) << once.stats.error();
    EXPECT_EQ(once.stats->labelled, 4u);
    EXPECT_EQ(once.stats->restarts, 1u);
    EXPECT_EQ(readAllRecords((dir / "out-1-2-1.bin").string()).value(), *cleanRecords);

    // Two crashes on the same position: skipped and said so, never labelled.
    auto twice = labelWith(dir, "4k3/8/8/8/8/8/4P3/4K3", 2, 1);
    ASSERT_TRUE(twice.stats.ok()) << twice.stats.error();
    EXPECT_EQ(twice.stats->labelled, 3u);
    EXPECT_EQ(twice.stats->skipped, 2u);
    bool reported = false;
    for (const auto& line : twice.reports)
        reported |= line.find("line 3: skipped") != std::string::npos;
    EXPECT_TRUE(reported);
    auto records = readAllRecords((dir / "out-2-1-1.bin").string());
    ASSERT_TRUE(records.ok());
    EXPECT_EQ(records->size(), 3u);

    // Several positions in flight (the default teacher answers them one by one through
    // Engine::searchInOrder, stopping at a crash): the same records, the crash retried once.
    auto batched = labelWith(dir, "", 0, 1, "in.epd", 3);
    ASSERT_TRUE(batched.stats.ok()) << batched.stats.error();
    EXPECT_EQ(readAllRecords((dir / "out-0-1-3.bin").string()).value(), *cleanRecords);
    auto batchedCrash = labelWith(dir, "4k3/8/8/8/8/8/4P3/4K3", 1, 1, "in.epd", 4);
    ASSERT_TRUE(batchedCrash.stats.ok()) << batchedCrash.stats.error();
    EXPECT_EQ(batchedCrash.stats->restarts, 1u);
    EXPECT_EQ(readAllRecords((dir / "out-1-1-4.bin").string()).value(), *cleanRecords);

    // A teacher that always crashes stops the run.
    {
        std::ofstream many(dir / "many.epd");
        for (int i = 0; i < kMaxFailuresInARow + 5; ++i)
            many << "4k3/8/8/8/8/8/4P3/4K3 w - - 0 " << i + 1 << "\n";
    }
    auto broken = labelWith(dir, " ", 1000, 1, "many.epd");
    EXPECT_FALSE(broken.stats.ok());
    fs::remove_all(dir);
}

// The scale fit: the bound is on the teacher's own centipawns, so a factor scales the ratio and
// leaves the set of positions alone; mates and large scores stay out.
TEST(Labeler, ScaleFitBoundsTheTeachersOwnScores) {
    ScaleFit plain, doubled;
    const int pairs[][2] = {{100, 60}, {-400, -230}, {1500, 1900}, {2500, 100}, {100, 31990}};
    for (const auto& p : pairs) {
        plain.add(p[0], p[1], 1.0);
        doubled.add(p[0], 2 * p[1], 2.0);
    }
    EXPECT_EQ(plain.positions, 3u);
    EXPECT_EQ(doubled.positions, 3u) << "the factor changed which positions count";
    ASSERT_TRUE(plain.ratio() && doubled.ratio());
    EXPECT_NEAR(*doubled.ratio(), 2 * *plain.ratio(), 1e-12);
    EXPECT_NEAR(*plain.ratio(),
                (100.0 * 60 + 400.0 * 230 + 1500.0 * 1900) /
                    (100.0 * 100 + 400.0 * 400 + 1500.0 * 1500),
                1e-12);
    EXPECT_FALSE(ScaleFit{}.ratio());
}

// One output per input (axon grow's label step): each input's records, in order, in its own
// file, the same records as one merged output; blocks that straddle no input boundary; an
// empty input still gets its empty output; a count mismatch is refused.
TEST(Labeler, OneOutputPerInput) {
    const fs::path dir =
        fs::temp_directory_path() / ("axon-label-outputs-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<std::string> lines = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 30", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "8/8/8/8/8/5k2/8/4K2R w K - 0 1", "8/8/8/8/8/5k2/8/4K2R b K - 0 1"};
    {
        std::ofstream a(dir / "a.epd"), b(dir / "b.epd"), c(dir / "c.epd");
        a << lines[0] << "\n" << lines[1] << "\n" << lines[2] << "\n";
        c << lines[3] << "\n" << lines[4] << "\n";
    }
    auto run = [&](std::vector<std::string> outputs, const std::string& output) {
        LabelConfig config;
        config.inputs = {(dir / "a.epd").string(), (dir / "b.epd").string(),
                         (dir / "c.epd").string()};
        config.output = (dir / output).string();
        config.outputs = std::move(outputs);
        config.limit.depth = 1;
        config.jobs = 2;
        config.blockSize = 2;
        auto crashes = std::make_shared<int>(0);
        std::atomic<bool> stop{false};
        return runLabel(config, [&] { return std::make_unique<ScriptedTeacher>("", crashes); },
                        stop, {});
    };
    auto merged = run({}, "all.bin");
    ASSERT_TRUE(merged.ok()) << merged.error();
    const std::vector<std::string> outs = {(dir / "a.bin").string(), (dir / "b.bin").string(),
                                           (dir / "c.bin").string()};
    auto split = run(outs, "split");
    ASSERT_TRUE(split.ok()) << split.error();
    EXPECT_EQ(split->output, 5u);
    auto all = readAllRecords((dir / "all.bin").string()).value();
    auto a = readAllRecords(outs[0]).value(), b = readAllRecords(outs[1]).value(),
         c = readAllRecords(outs[2]).value();
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(b.size(), 0u);
    ASSERT_EQ(c.size(), 2u);
    a.insert(a.end(), c.begin(), c.end());
    EXPECT_EQ(a, all);
    EXPECT_FALSE(fs::exists(dir / "split.parts"));
    EXPECT_FALSE(run({outs[0]}, "short").ok()) << "three inputs, one output";
    fs::remove_all(dir);
}

} // namespace
} // namespace axon::test
