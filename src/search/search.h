// SPDX-License-Identifier: GPL-3.0-or-later
// The alpha-beta search: one Worker per thread (Lazy SMP), sharing the transposition table and
// the stop signal. Worker 0 manages time and reports.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "chess/position.h"
#include "eval/evaluator.h"
#include "search/correction.h"
#include "search/history.h"
#include "search/limits.h"
#include "search/score.h"
#include "search/threats.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "search/wdl.h"
#include "tablebase/tablebases.h"

namespace axon::search {

// One line of search output (UCI `info`).
struct SearchInfo {
    int depth = 0;
    int selDepth = 0;
    int multiPv = 1;
    int score = 0;
    Bound bound = Bound::Exact; // Lower/Upper while an aspiration window failed
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    int hashfull = 0;
    std::uint64_t tbHits = 0;
    Wdl wdl; // expected outcome for the side to move, from score and material (search/wdl.h)
    std::vector<chess::Move> pv;
};

// A periodic report of a running search between its completed iterations (the live nodes and
// speed of an analysis): what `info` lines say only when an iteration or aspiration step ends.
struct SearchProgress {
    int depth = 0; // the iteration under way
    int selDepth = 0;
    std::uint64_t nodes = 0; // all threads
    std::int64_t timeMs = 0;
    int hashfull = 0;
    std::uint64_t tbHits = 0;
    chess::Move currMove; // the root move being searched (none before the first)
    int currMoveNumber = 0;
};

// Nodes per second for an `info` line (the node count itself before a millisecond has passed).
inline std::uint64_t nodesPerSecond(std::uint64_t nodes, std::int64_t timeMs) {
    return timeMs > 0 ? nodes * 1000 / std::uint64_t(timeMs) : nodes;
}

struct SearchResult {
    chess::Move bestMove;
    chess::Move ponderMove;
    int score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
};

struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onInfo;
    // Reports the move being searched at the root, for long searches (UCI currmove).
    std::function<void(chess::Move move, int number, int depth)> onCurrMove;
    // Called by the main thread about every progressIntervalMs while searching (0: never).
    std::function<void(const SearchProgress&)> onProgress;
    std::int64_t progressIntervalMs = 0;
    // False: reports leave hashfull at 0 and never sample the table. Sampling reads 1000
    // entries once per search, 3.6 % of datagen's time at 40 nodes a move (2026-12-07).
    bool hashfull = true;
};

// How the search uses tablebases (the Syzygy* options).
struct TablebaseSettings {
    int probeDepth = 1;    // the least depth to probe at with the most pieces the tables hold
    int probeLimit = 7;    // probe positions of at most this many pieces
    bool useRule50 = true; // cursed wins and blessed losses are draws
};

// State every worker of one search shares.
struct SharedSearchState {
    // The tables of this search (none: no probes), and how to use them.
    const tablebase::Tablebases* tablebases = nullptr;
    TablebaseSettings tbSettings;
    // The root's moves ranked by the tables, once per search by the main thread before the
    // workers start (rankRootByTablebases); empty when the root is not in the tables.
    std::vector<tablebase::RankedMove> rootRanking;
    bool rootRankedByDtz = false;
    TranspositionTable* tt = nullptr;
    SearchLimits limits;
    TimeManager time;
    std::atomic<bool> stop{false};
    // While pondering the clock does not run for us: time limits apply from ponderhit on.
    std::atomic<bool> pondering{false};
    int multiPv = 1;
    // Lines reported to the GUI: fewer than multiPv when strength limiting searches extra lines.
    int reportedLines = 1;
    // Node budget of strength limiting (0: none); unlike limits.nodes it spares iteration 1.
    std::uint64_t skillNodes = 0;
    int threadCount = 1;
    // What every worker evaluates with (set per search).
    eval::EvalSource evalSource;
    SearchCallbacks callbacks;
    // When the main thread reports progress next (elapsed ms; callbacks.onProgress).
    std::int64_t nextProgressMs = 0;
    // The hash table's fill as reports give it: TranspositionTable::hashfull scans 1,000 entries,
    // and a short search reports every iteration (the scans were 2.4 % of datagen's time), so a
    // sample is reused until the search has spent kHashfullSampleNodes more nodes. Counted in
    // nodes, not milliseconds, so that a fixed-node search prints the same lines however fast
    // the machine (the WebAssembly build is checked line by line against the native one).
    // -1: none taken in this search yet.
    static constexpr std::int64_t kHashfullSampleNodes = 16384;
    std::int64_t hashfullSampledNodes = -1;
    int hashfullSample = 0;
    std::vector<std::unique_ptr<class Worker>>* workers = nullptr;

    std::uint64_t totalNodes() const;
    std::uint64_t totalTbHits() const;
    // The fill for a report made after `nodes` nodes of the search (main thread only); 0
    // without sampling when callbacks.hashfull is false.
    int hashfullForReport(std::uint64_t nodes);
};

// The root moves a search considers: all legal ones, or those of `go searchmoves`.
bool isRootMoveAllowed(const SearchLimits& limits, chess::Move m);

// Ranks the root's allowed moves by the tables into shared.rootRanking when the root is in
// them (the main thread, once per search: every worker reads the same ranking).
void rankRootByTablebases(SharedSearchState& shared, const chess::Position& root);

struct RootMove {
    chess::Move move;
    int score = -kScoreInfinite;
    int previousScore = -kScoreInfinite;
    int selDepth = 0;
    std::vector<chess::Move> pv;
    // With the root in the tablebases: the move's rank (higher is better; lines are searched
    // within one rank) and the score that rank stands for. 0 for every move otherwise.
    int tbRank = 0;
    int tbScore = 0;
    // What `score` is: exact, or a bound of the aspiration window it was found in (a fail high
    // gives a lower bound, the first move failing low an upper one).
    Bound scoreBound = Bound::Exact;

    // This iteration's score, or the last completed one's while this iteration has none yet
    // (not searched, or a stop inside its first root move).
    int latestScore() const { return score != -kScoreInfinite ? score : previousScore; }
};

class Worker {
  public:
    Worker(int id, SharedSearchState& shared);

    void clearHistory();
    // Searches `root` until the limits or the stop signal; fills result(). The counts are
    // zeroed by the caller, for every worker before any starts (resetCounts).
    void run(const chess::Position& root);
    // Zeroes the node and tablebase-hit counts: the limits read every worker's count, so all
    // must be zero before the first worker starts (a helper's job may begin after the main
    // thread's first checks).
    void resetCounts() {
        m_nodes.store(0, std::memory_order_relaxed);
        m_tbHits.store(0, std::memory_order_relaxed);
    }
    const SearchResult& result() const { return m_result; }
    std::uint64_t nodes() const { return m_nodes.load(std::memory_order_relaxed); }
    std::uint64_t tbHits() const { return m_tbHits.load(std::memory_order_relaxed); }
    int completedDepth() const { return m_completedDepth; }
    const std::vector<RootMove>& rootMoves() const { return m_rootMoves; }
    // The multiPv best lines of the last completed iteration, best first.
    std::span<const RootMove> completedLines() const {
        return {m_completedLines.data(), m_completedCount};
    }
    // Reports this worker's best line as the search's last `info` line: Lazy SMP plays a
    // helper's move when it searched deeper, and the GUI must then see that move's line. Called
    // by the main thread once the helpers have stopped.
    void reportBestLine() { reportInfo(m_completedDepth, Bound::Exact, 0); }

  private:
    struct StackEntry {
        chess::Move move;
        chess::Piece movedPiece = chess::NoPiece;
        chess::Move excluded;
        chess::Move killers[2];
        PieceToHistory* continuation = nullptr;
        bool noisy = false;          // the move made here captures or promotes
        int staticEval = kScoreNone; // none: in check, or not evaluated yet
        int doubleExtensions = 0;
        // What the side not to move attacks, set before the move loop (and before the hash-move
        // bonus of a cutoff): the picker's threat terms and the butterfly bucket of the quiet
        // moves made here.
        Threats threats;
    };
    // Room below ply 0 for the continuation histories' look back (search/history.h).
    static constexpr int kStackOffset = 7;

    enum NodeType { Root, PV, NonPV };

    void iterativeDeepening();
    int aspirationSearch(int depth, int previousScore);
    template <NodeType Type>
    int search(int alpha, int beta, int depth, bool cutNode, int ply);
    template <NodeType Type>
    int qsearch(int alpha, int beta, int ply);

    bool shouldStop();
    void countNode() {
        m_nodes.store(m_nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    void reportInfo(int depth, Bound bound, int pvIndex);
    // Sorts m_rootMoves[first, last) (sortRootMoves) and rebuilds the index: every reordering
    // of the root moves goes through here or ends with indexRootMoves().
    void reorderRootMoves(std::size_t first, std::size_t last);
    void indexRootMoves();
    // The index of `m` in m_rootMoves, or its size when it is not a root move.
    std::size_t rootMoveIndex(chess::Move m) const;
    // Sends a SearchProgress when the interval has passed (main thread, from shouldStop).
    void reportProgress();
    void updatePv(int ply, chess::Move move);
    void updateQuietHistories(int ply, chess::Move best, const chess::Move* quiets, int quietCount,
                              int depth);
    // Butterfly and continuation histories of one quiet move made at `ply` (from the position
    // before it) by `bonus`.
    void updateQuietMove(int ply, chess::Color side, chess::Piece piece, chess::Move m, int bonus);
    void updateCaptureHistory(chess::Move best, const chess::Move* captures, int captureCount,
                              int depth);
    // Gives the root moves their tablebase ranks (SharedSearchState::rootRanking) and chooses
    // where the search probes (m_tbCardinality, m_tbProbeDepth).
    void applyTablebaseRanking();
    // A WDL probe inside the search: the score, and its bound, when the tables decide.
    std::optional<std::pair<int, Bound>> probeTablebases(int depth, int ply);
    // The score a line reports: with the root in the tables and no mate found, the tables'.
    int reportedScore(const RootMove& rm) const;
    StackEntry& stack(int ply) { return m_stack[ply + kStackOffset]; }
    // Make/unmake keeping the evaluator's accumulators in step with the position.
    void makeMove(chess::Move m) {
        m_eval.push(m_pos, m);
        m_pos.makeMove(m);
    }
    void unmakeMove() {
        m_pos.unmakeMove();
        m_eval.pop();
    }
    void makeNullMove() {
        m_eval.pushNull();
        m_pos.makeNullMove();
    }
    void unmakeNullMove() {
        m_pos.unmakeNullMove();
        m_eval.pop();
    }
    int evaluate() { return m_eval.evaluate(m_pos); }
    // The network's score plus what correction history learnt about this kind of position.
    int correctedEval(int rawEval) const {
        return std::clamp(rawEval + m_correction->correction(m_pos), -kScoreTbWinInMaxPly + 1,
                          kScoreTbWinInMaxPly - 1);
    }

    int m_id;
    SharedSearchState& m_shared;
    chess::Position m_pos;
    eval::Evaluator m_eval;
    std::atomic<std::uint64_t> m_nodes{0};
    std::atomic<std::uint64_t> m_tbHits{0};
    // Probe positions of at most this many pieces (0: none), at this depth or more when they
    // have exactly that many.
    int m_tbCardinality = 0;
    int m_tbProbeDepth = 0;
    bool m_rootInTb = false;
    // The end of the root moves the current line chooses from: those of its tablebase rank.
    std::size_t m_pvLast = 0;
    int m_selDepth = 0;
    // The deepest ply any node of this search reached (PV or not): how much of the stack the
    // next search must clear. The first search clears it all.
    int m_deepestPly = chess::kMaxPly + 4;
    int m_rootDepth = 0;
    int m_pvIndex = 0;
    int m_completedDepth = 0;
    // Set once a root move has a score: a node limit stops the search only then, so that every
    // search, however few its nodes, ends with a move it searched and a score (below, a search
    // whose first root move's quiescence took more than `go nodes` ended with neither).
    bool m_rootMoveScored = false;
    // The root move being searched and its number (for progress reports).
    chess::Move m_rootMove;
    int m_rootMoveNumber = 0;
    int m_rootMaterial = 0;
    SearchResult m_result;
    std::vector<RootMove> m_rootMoves;
    std::vector<RootMove> m_completedLines; // the first m_completedCount are this search's
    std::size_t m_completedCount = 0;
    std::vector<std::vector<chess::Move>> m_spareLines; // RootMove::pv vectors to reuse
    // Where each root move is in m_rootMoves, by its from and to squares, rebuilt after every
    // reordering: the root's move loop finds a move's entry at once instead of scanning the list
    // twice per move (6 % of datagen's time at 40 nodes a search, quadratic in the moves).
    std::array<std::uint8_t, 64 * 64> m_rootSlot{};

    StackEntry m_stack[chess::kMaxPly + kStackOffset + 4];
    chess::Move m_pv[chess::kMaxPly + 1][chess::kMaxPly + 1];
    int m_pvLength[chess::kMaxPly + 1];

    std::unique_ptr<ButterflyHistory> m_butterfly;
    std::unique_ptr<CaptureHistory> m_captureHistory;
    std::unique_ptr<ContinuationHistory> m_continuation;
    std::unique_ptr<CounterMoves> m_counters;
    std::unique_ptr<CorrectionHistory> m_correction;
};

} // namespace axon::search
