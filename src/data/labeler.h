// SPDX-License-Identifier: GPL-3.0-or-later
// Re-scoring positions with a teacher engine (`axon label`): any UCI engine, through the match
// runner's engine processes, scores each position of Axon data files or EPD/FEN text files,
// or every ply of game files (the games are kept, their scores replaced: no replayed search);
// the work is split into blocks finished atomically as part files, so an interrupted run
// resumes, and the parts are merged in input order at the end (docs/datagen.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "data/training_record.h"
#include "match/engine.h"
#include "match/engine_pool.h"
#include "util/result.h"

namespace axon::data {

constexpr std::size_t kDefaultLabelBlock = 4096;
constexpr int kDefaultLabelInFlight = 16;
// A teacher that fails this many positions in a row (crashes, no score, illegal moves) is
// broken, not unlucky: the run stops instead of skipping everything.
constexpr int kMaxFailuresInARow = 20;

// A teacher's score as a record score (side to move's view): centipawns times `scoreFactor`
// (LabelConfig::scoreFactor), rounded and clamped to +-kRecordScoreLimit; mate in N moves as
// +-(kRecordScoreLimit - plies to mate), never scaled; "mate 0" (mated now) is -kRecordScoreLimit.
int teacherScore(const match::SearchResult& answer, double scoreFactor = 1.0);

// The labelled record for `pos` from the teacher's answer, keeping `result` and `ply`; or why
// the answer cannot be used (no score, a best move that is not legal here).
util::Result<TrainingRecord> labelFromAnswer(const chess::Position& pos,
                                             const match::SearchResult& answer, GameResult result,
                                             int ply, double scoreFactor = 1.0);

// The scale of written labels against the inputs' own scores: the least-squares line through
// zero, written = ratio x input. Positions take part where the input and the teacher's own
// centipawns (the written score over the factor) are both within kBound: past it a score says
// "won" more than "how much", and mates are not centipawns at all. The bound is on the teacher's
// raw score, so which positions count does not depend on the factor.
struct ScaleFit {
    static constexpr int kBound = 2000;
    double products = 0, squares = 0;
    std::uint64_t positions = 0;
    void add(int input, int written, double scoreFactor) {
        if (std::abs(input) > kBound || std::abs(written) > kBound * scoreFactor) return;
        products += double(input) * double(written);
        squares += double(input) * double(input);
        ++positions;
    }
    // Empty without such positions (EPD input has no scores).
    std::optional<double> ratio() const {
        if (positions == 0 || squares <= 0) return std::nullopt;
        return products / squares;
    }
};

// "COMMAND option.NAME=VALUE ...": the teacher as LabelConfig::teacherDescription names it in a
// run's manifest (`axon label` and `axon grow` alike, so their parts are each other's).
std::string describeTeacher(const match::EngineConfig& teacher);

struct LabelConfig {
    // Axon data files (by their magic) or EPD/FEN text files; or only game files, labelled into
    // a game file.
    std::vector<std::string> inputs;
    // The data file written; with `outputs`, only the name the parts folder (output + ".parts")
    // and the lock take.
    std::string output;
    // One data file per input instead (data and EPD inputs, not game files): input i's records
    // go to outputs[i], so a run of many chunks is labelled with one set of teachers and stays
    // in chunks (`axon grow`'s label step).
    std::vector<std::string> outputs;
    match::AnalysisLimit limit;
    int jobs = 1;
    // Positions sent to each teacher at once (match::Engine::searchInOrder): a UCI teacher
    // queues the next position and go behind the running search, so the round trip per
    // position is saved. 1: one position at a time.
    int inFlight = kDefaultLabelInFlight;
    std::size_t blockSize = kDefaultLabelBlock;
    // Keep OUTPUT.parts after merging (tests and inspection).
    bool keepParts = false;
    // Describes the teacher for the resume check (command, options, limit).
    std::string teacherDescription;
    // The teacher's centipawns are multiplied by this before they are written: teachers count
    // centipawns on their own scales (Stockfish 15.1's at depth 1-5 are about 0.59 of Axon's
    // 40-node search's on the same positions, docs/nets.md), and a network learns its teacher's
    // scale, which the search's margins were tuned without. LabelStats::fit measures it.
    double scoreFactor = 1.0;
};

struct LabelStats {
    std::uint64_t inputs = 0;   // positions in the inputs
    std::uint64_t labelled = 0; // records written this run
    std::uint64_t skipped = 0;  // positions not labelled this run (reported one by one)
    std::uint64_t restarts = 0; // teacher restarts after a crash or hang
    std::uint64_t resumedBlocks = 0, resumedRecords = 0;
    std::uint64_t blocks = 0;
    std::uint64_t pending = 0;   // positions in the blocks this run labels
    std::uint64_t processed = 0; // of those, labelled or skipped so far
    std::uint64_t output = 0;    // records (game files: plies) in the output file when merged
    double seconds = 0;
    bool interrupted = false;
    // The written scores against the inputs' own (data and game files carry the generating
    // search's scores) over the positions labelled in this process (not resumed parts), summed
    // in the order the teachers answer: for the summary. scaleFitOfFiles measures files.
    ScaleFit fit;
};

// The ScaleFit of labelled data files against the files they were labelled from (the same
// records in the same order), over the first `perFile` records of each pair, in order: the
// same figure for the same files however the labelling went.
util::Result<ScaleFit> scaleFitOfFiles(const std::vector<std::string>& inputs,
                                       const std::vector<std::string>& labelled, double scoreFactor,
                                       std::size_t perFile);

struct LabelCallbacks {
    // Called at most every `progressSeconds` from a worker thread (serialised).
    std::function<void(const LabelStats&)> onProgress;
    double progressSeconds = 3.0;
    // A skipped position or a teacher restart, one line each (serialised).
    std::function<void(const std::string&)> onReport;
};

// Labels every position not yet in a finished part file with `jobs` teachers, then merges the
// parts into config.output (atomically) unless interrupted by `stop`. Errors: unreadable
// inputs, a resume with other inputs or teacher, a teacher that does not start or keeps
// failing, files that cannot be written.
util::Result<LabelStats> runLabel(const LabelConfig& config, const match::EngineFactory& teacher,
                                  const std::atomic<bool>& stop, const LabelCallbacks& callbacks);

} // namespace axon::data
