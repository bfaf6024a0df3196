// SPDX-License-Identifier: GPL-3.0-or-later
// Iterative deepening, aspiration windows, principal variation search and quiescence search.
// The numbered steps of search() are the places where a technique is applied, each with what it
// was measured to be worth (docs/elo-log.md has the games; "at 40k" means fixed 40,000-node games,
// "HCE" a measurement taken with the hand-written evaluation).
#include "search/search.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "chess/movegen.h"
#include "chess/rules.h"
#include "chess/see.h"
#include "eval/evaluate.h"
#include "search/movepick.h"
#include "search/params.h"

namespace axon::search {

using namespace chess;

namespace {

// Late-move reductions grow with the logarithms of depth and move number.
double reductionFormula(int depth, int moveCount) {
    return params::lmrBase / 100.0 +
           std::log(depth) * std::log(moveCount) / (params::lmrDivisor / 100.0);
}

struct ReductionTable {
    int value[64][64];
    ReductionTable() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m) value[d][m] = (d && m) ? int(reductionFormula(d, m)) : 0;
    }
};
const ReductionTable kReductions;

int reduction(int depth, int moveCount) {
    depth = std::min(depth, 63);
    moveCount = std::min(moveCount, 63);
#ifdef AXON_TUNE
    // A tune build's parameters change between searches: no table built once at start-up.
    return (depth && moveCount) ? int(reductionFormula(depth, moveCount)) : 0;
#else
    return kReductions.value[depth][moveCount];
#endif
}

int historyBonus(int depth) {
    return std::min(params::historyBonusQuadratic * depth * depth +
                        params::historyBonusLinear * depth,
                    params::historyBonusMax);
}

// The earlier moves whose continuation histories order and score a quiet move.
constexpr int kContinuationPlies[] = {1, 2, 4, 6};

// Root moves: a better tablebase rank first (all ranks are 0 outside the tables), then score.
bool rootMoveOrder(const RootMove& a, const RootMove& b) {
    return a.tbRank != b.tbRank ? a.tbRank > b.tbRank : a.score > b.score;
}

// Sorts root moves by rootMoveOrder, stable: the order std::stable_sort gives, without the
// buffer it allocates on every call (2.3 % of datagen's profile at 40 nodes a move, where each
// search sorts a few times). Root moves are few and mostly in order already.
void sortRootMoves(std::vector<RootMove>::iterator first, std::vector<RootMove>::iterator last) {
    if (first == last) return;
    for (auto i = first + 1; i != last; ++i) {
        if (!rootMoveOrder(*i, *(i - 1))) continue;
        RootMove moving = std::move(*i);
        auto j = i;
        do {
            *j = std::move(*(j - 1));
            --j;
        } while (j != first && rootMoveOrder(moving, *(j - 1)));
        *j = std::move(moving);
    }
}

bool isDrawByRule(const Position& pos, int ply) {
    return pos.isRepetition(ply) || (pos.isFiftyMoveDraw() && !pos.inCheck()) ||
           insufficientMaterial(pos) != MaterialDraw::None;
}

} // namespace

std::uint64_t SharedSearchState::totalNodes() const {
    std::uint64_t total = 0;
    for (const auto& w : *workers) total += w->nodes();
    return total;
}

std::uint64_t SharedSearchState::totalTbHits() const {
    std::uint64_t total = 0;
    for (const auto& w : *workers) total += w->tbHits();
    return total;
}

int SharedSearchState::hashfullForReport(std::uint64_t nodes) {
    if (!callbacks.hashfull) return 0; // the caller never shows it (datagen)
    const auto spent = static_cast<std::int64_t>(nodes);
    if (hashfullSampledNodes < 0 || spent - hashfullSampledNodes >= kHashfullSampleNodes) {
        hashfullSample = tt->hashfull();
        hashfullSampledNodes = spent;
    }
    return hashfullSample;
}

Worker::Worker(int id, SharedSearchState& shared)
    : m_id(id), m_shared(shared), m_butterfly(std::make_unique<ButterflyHistory>()),
      m_captureHistory(std::make_unique<CaptureHistory>()),
      m_continuation(std::make_unique<ContinuationHistory>()),
      m_counters(std::make_unique<CounterMoves>()),
      m_correction(std::make_unique<CorrectionHistory>()) {
    clearHistory();
}

void Worker::clearHistory() {
    clearTable(*m_butterfly);
    clearTable(*m_captureHistory);
    clearTable(*m_continuation);
    clearTable(*m_counters);
    m_correction->clear();
}

void Worker::reorderRootMoves(std::size_t first, std::size_t last) {
    sortRootMoves(m_rootMoves.begin() + std::ptrdiff_t(first),
                  m_rootMoves.begin() + std::ptrdiff_t(last));
    indexRootMoves();
}

void Worker::indexRootMoves() {
    for (std::size_t i = 0; i < m_rootMoves.size(); ++i)
        m_rootSlot[m_rootMoves[i].move.raw() & 0xFFF] = std::uint8_t(i);
}

std::size_t Worker::rootMoveIndex(Move m) const {
    const std::size_t slot = m_rootSlot[m.raw() & 0xFFF];
    if (slot < m_rootMoves.size() && m_rootMoves[slot].move == m) return slot;
    // Promotions to different pieces share a slot (and a stale slot names another move).
    for (std::size_t i = 0; i < m_rootMoves.size(); ++i)
        if (m_rootMoves[i].move == m) return i;
    return m_rootMoves.size();
}

void Worker::run(const Position& root) {
    m_pos = root;
    m_eval.setSource(m_shared.evalSource);
    m_eval.reset(root);
    m_completedDepth = 0;
    m_rootMoveScored = false;
    m_result = {};
    m_rootMove = Move::none();
    m_rootMoveNumber = 0;
    // The lines' move vectors go back to a pool for this search's root moves: at 40 nodes a
    // search (datagen), allocating one per root move was about 2 % of the time.
    for (RootMove& rm : m_rootMoves) m_spareLines.push_back(std::move(rm.pv));
    m_rootMoves.clear();
    m_completedCount = 0;
    m_rootMaterial = wdlMaterial(root);
    for (const Move m : MoveList(root))
        if (isRootMoveAllowed(m_shared.limits, m)) {
            std::vector<Move> line;
            if (!m_spareLines.empty()) {
                line = std::move(m_spareLines.back());
                m_spareLines.pop_back();
            }
            line.assign(1, m);
            m_rootMoves.push_back(
                RootMove{m, -kScoreInfinite, -kScoreInfinite, 0, std::move(line)});
        }
    applyTablebaseRanking();
    indexRootMoves();
    // Back to a fresh stack. Only the entries the last search wrote can differ from fresh ones:
    // those below ply 0 and up to one past the deepest ply it reached (killers and extensions
    // are set for the child). Clearing all 257 entries was 2.7 % of datagen's time at 40 nodes
    // a search, where the deepest ply is a few.
    const int used = std::min(int(std::size(m_stack)), kStackOffset + m_deepestPly + 2);
    for (int i = 0; i < used; ++i) m_stack[i] = StackEntry{};
    m_deepestPly = 0;
    iterativeDeepening();
    m_result.nodes = nodes();
}

void rankRootByTablebases(SharedSearchState& shared, const Position& root) {
    shared.rootRanking.clear();
    shared.rootRankedByDtz = false;
    const tablebase::Tablebases* tb = shared.tablebases;
    if (!tb || tb->empty()) return;
    const int cardinality = std::min(shared.tbSettings.probeLimit, tb->maxPieces());
    if (popcount(root.pieces()) > cardinality || root.castlingRights() != NoCastling) return;
    std::vector<Move> moves;
    for (const Move m : MoveList(root))
        if (isRootMoveAllowed(shared.limits, m)) moves.push_back(m);
    Position pos = root; // the probes make and unmake moves
    if (auto ranking = tb->rankRootMoves(pos, moves, shared.tbSettings.useRule50)) {
        shared.rootRanking = std::move(ranking->moves);
        shared.rootRankedByDtz = ranking->byDtz;
    }
}

void Worker::applyTablebaseRanking() {
    m_tbCardinality = 0;
    m_rootInTb = false;
    const tablebase::Tablebases* tb = m_shared.tablebases;
    if (!tb || tb->empty() || m_rootMoves.empty()) return;
    const TablebaseSettings& settings = m_shared.tbSettings;
    m_tbCardinality = std::min(settings.probeLimit, tb->maxPieces());
    // Below the largest tables there is no depth limit (the probe limit chose fewer pieces).
    m_tbProbeDepth = settings.probeLimit > tb->maxPieces() ? 0 : settings.probeDepth;
    // The ranking holds exactly these moves (the same legal moves and searchmoves filter).
    if (m_shared.rootRanking.size() != m_rootMoves.size()) return;
    m_rootInTb = true;
    const int bound = settings.useRule50 ? tablebase::kMaxDtzRank - 100 : 1;
    for (RootMove& rm : m_rootMoves) {
        const auto ranked = std::find_if(m_shared.rootRanking.begin(), m_shared.rootRanking.end(),
                                         [&](const auto& r) { return r.move == rm.move; });
        rm.tbRank = ranked->rank;
        // Wins and losses the rule cannot spoil score as tablebase results; cursed wins and
        // blessed losses as a little more or less than a draw, growing toward a real result.
        const int r = ranked->rank;
        rm.tbScore = r >= bound   ? kScoreTbWin - 1
                     : r > 0      ? std::max(3, r - (tablebase::kMaxDtzRank - 200)) / 2
                     : r == 0     ? kScoreDraw
                     : r > -bound ? std::min(-3, r + (tablebase::kMaxDtzRank - 200)) / 2
                                  : -kScoreTbWin + 1;
    }
    std::stable_sort(m_rootMoves.begin(), m_rootMoves.end(),
                     [](const RootMove& a, const RootMove& b) { return a.tbRank > b.tbRank; });
    if (m_id == 0) m_tbHits.store(m_rootMoves.size(), std::memory_order_relaxed);
    // With DTZ the ranking has decided, and the search only chooses among equals; with WDL alone
    // a won root still needs the probes to find its way.
    if (m_shared.rootRankedByDtz || m_rootMoves[0].tbScore <= kScoreDraw) m_tbCardinality = 0;
}

std::optional<std::pair<int, Bound>> Worker::probeTablebases(int depth, int ply) {
    const int pieces = popcount(m_pos.pieces());
    if (pieces > m_tbCardinality || (pieces == m_tbCardinality && depth < m_tbProbeDepth) ||
        m_pos.halfmoveClock() != 0 || m_pos.castlingRights() != NoCastling)
        return std::nullopt;
    const auto wdl = m_shared.tablebases->probeWdl(m_pos);
    if (!wdl) return std::nullopt;
    m_tbHits.store(m_tbHits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    // Without the fifty-move rule, cursed wins are wins; with it, they score one more than a draw.
    const int drawScore = m_shared.tbSettings.useRule50 ? 1 : 0;
    const int w = int(*wdl);
    if (w > drawScore) return std::pair{kScoreTbWin - ply, Bound::Lower};
    if (w < -drawScore) return std::pair{-kScoreTbWin + ply, Bound::Upper};
    return std::pair{kScoreDraw + 2 * w * drawScore, Bound::Exact};
}

int Worker::reportedScore(const RootMove& rm) const {
    const int score = rm.latestScore();
    return m_rootInTb && !isMateScore(score) && score != -kScoreInfinite ? rm.tbScore : score;
}

bool isRootMoveAllowed(const SearchLimits& limits, Move m) {
    const auto& only = limits.searchMoves;
    return only.empty() || std::find(only.begin(), only.end(), m) != only.end();
}

bool Worker::shouldStop() {
    if (m_shared.stop.load(std::memory_order_relaxed)) return true;
    if (m_id != 0) return false;
    const SearchLimits& limits = m_shared.limits;
    // With one thread the node limit is exact, which makes fixed-node searches reproducible, but
    // it waits for the first root move's score: 16 of the first 186,000 g7 positions labelled at
    // 300 nodes a position had none (the labeller skipped them; datagen played the move first
    // generated). Strength limiting's budget lets the first iteration finish, so there are lines
    // to pick.
    const std::uint64_t nodeLimit =
        m_shared.skillNodes && m_rootDepth > 1
            ? (limits.nodes ? std::min(limits.nodes, m_shared.skillNodes) : m_shared.skillNodes)
            : limits.nodes;
    if (nodeLimit && m_rootMoveScored) {
        if (m_shared.threadCount == 1 ? nodes() >= nodeLimit
                                      : (nodes() & 1023) == 0 && m_shared.totalNodes() >= nodeLimit)
            m_shared.stop = true;
    }
    if ((nodes() & 1023) == 0) {
        if (!m_shared.pondering.load(std::memory_order_relaxed) && m_shared.time.hardExpired() &&
            m_rootDepth > 1)
            m_shared.stop = true;
        if (m_shared.callbacks.progressIntervalMs > 0) reportProgress();
    }
    return m_shared.stop.load(std::memory_order_relaxed);
}

void Worker::reportProgress() {
    const std::int64_t elapsed = m_shared.time.elapsedMs();
    if (elapsed < m_shared.nextProgressMs || !m_shared.callbacks.onProgress) return;
    // The next report is due an interval from now, not from the last due time: a callback slower
    // than the interval never makes reports pile up.
    m_shared.nextProgressMs = elapsed + m_shared.callbacks.progressIntervalMs;
    SearchProgress progress;
    progress.depth = m_rootDepth;
    progress.selDepth = m_selDepth;
    progress.nodes = m_shared.totalNodes();
    progress.timeMs = elapsed;
    progress.hashfull = m_shared.hashfullForReport(progress.nodes);
    progress.tbHits = m_shared.totalTbHits();
    progress.currMove = m_rootMove;
    progress.currMoveNumber = m_rootMoveNumber;
    m_shared.callbacks.onProgress(progress);
}

void Worker::iterativeDeepening() {
    const SearchLimits& limits = m_shared.limits;
    const int maxDepth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 1) : kMaxPly - 1;
    const int multiPv = std::min<int>(m_shared.multiPv, int(m_rootMoves.size()));
    if (m_rootMoves.empty()) return;

    Move lastBest;
    int stability = 0;
    // Set when a stop ended an iteration before it completed (not once the loop has ended).
    bool stoppedInIteration = false;
    for (m_rootDepth = 1; m_rootDepth <= maxDepth; ++m_rootDepth) {
        // Lazy SMP: helpers skip some depths so the threads spread over different iterations.
        if (m_id > 0 && m_rootDepth > 1 && ((m_rootDepth + m_id) % 3 == 0)) continue;

        // Unsearched and failed-low moves sort behind the ones this iteration completed.
        for (RootMove& rm : m_rootMoves) {
            rm.previousScore = rm.score;
            rm.score = -kScoreInfinite;
        }
        for (m_pvIndex = 0; m_pvIndex < multiPv; ++m_pvIndex) {
            m_selDepth = 0;
            // This line chooses among the moves of its tablebase rank (all of them, without).
            m_pvLast = m_pvIndex + 1;
            while (m_pvLast < m_rootMoves.size() &&
                   m_rootMoves[m_pvLast].tbRank == m_rootMoves[m_pvIndex].tbRank)
                ++m_pvLast;
            const int previous = m_rootMoves[m_pvIndex].previousScore;
            aspirationSearch(m_rootDepth, previous);
            // Lines after the current one keep their order; the searched ones are sorted.
            reorderRootMoves(m_pvIndex, m_rootMoves.size());
            if (m_shared.stop.load(std::memory_order_relaxed)) {
                stoppedInIteration = true;
                break;
            }
            // A later line may end above an earlier one (each line's search excludes the
            // earlier lines' moves, and search is not exact): the completed lines are sorted
            // among themselves, so MultiPV output lists each depth's lines best first. Not
            // after a stop, when this line's score may be a bound.
            reorderRootMoves(0, std::size_t(m_pvIndex) + 1);
        }
        // A stop that came after the last line's search: every line is complete, and is
        // reported after the loop as if the iteration had been cut inside.
        if (m_shared.stop.load(std::memory_order_relaxed)) {
            stoppedInIteration = true;
            break;
        }

        m_completedDepth = m_rootDepth;
        // Copied over the earlier ones' elements, whose vectors keep their room.
        if (m_completedLines.size() < std::size_t(multiPv)) m_completedLines.resize(multiPv);
        std::copy_n(m_rootMoves.begin(), multiPv, m_completedLines.begin());
        m_completedCount = std::size_t(multiPv);
        if (m_id == 0)
            for (int i = 0; i < std::min(multiPv, m_shared.reportedLines); ++i)
                reportInfo(m_rootDepth, Bound::Exact, i);

        const RootMove& best = m_rootMoves[0];
        stability = best.move == lastBest ? stability + 1 : 0;
        lastBest = best.move;

        if (m_id != 0) continue;
        if (limits.mate && best.score >= kScoreMateInMaxPly &&
            mateDistance(best.score) <= limits.mate)
            break;
        if (limits.softNodes && m_shared.totalNodes() >= limits.softNodes) break;
        const int scoreDrop =
            best.previousScore == -kScoreInfinite ? 0 : best.previousScore - best.score;
        if (!m_shared.pondering.load() && m_shared.time.softExpired(stability, scoreDrop)) break;
    }

    // A stop inside an iteration (a node or time limit) keeps what it found: the move that beat
    // the old best there is played. The last info line must then show that move and its line,
    // as GUIs display it (before this, 6 of 150 UCI searches of the bench positions at 3,000,
    // 10,000 and 30,000 nodes ended on a PV that did not start with the best move). Reported:
    // the line the stop came in, if a move of it has a score this iteration (with its bound: a
    // re-search after a fail high may have failed low on the new move), then the lines this
    // iteration completed, the best last, so that a reader of the last line gets line 1.
    if (m_id == 0 && stoppedInIteration) {
        const int lines = std::min(multiPv, m_shared.reportedLines);
        if (m_pvIndex < lines) {
            const RootMove& rm = m_rootMoves[m_pvIndex];
            // A root in the tablebases reports the table's exact score (reportedScore).
            const Bound bound = m_rootInTb && !isMateScore(rm.score) ? Bound::Exact : rm.scoreBound;
            if (rm.score != -kScoreInfinite) reportInfo(m_rootDepth, bound, m_pvIndex);
        }
        for (int i = std::min(m_pvIndex, lines) - 1; i >= 0; --i)
            reportInfo(m_rootDepth, Bound::Exact, i);
    }

    const RootMove& best = m_rootMoves[0];
    m_result.bestMove = best.move;
    m_result.ponderMove = best.pv.size() > 1 ? best.pv[1] : Move::none();
    // A stop inside the first root move of an iteration leaves every score of that iteration
    // unset: the best move is still the last completed iteration's, and so is its score.
    m_result.score = reportedScore(best);
    m_result.depth = m_completedDepth;
}

int Worker::aspirationSearch(int depth, int previousScore) {
    int delta = params::aspirationDelta;
    int alpha = -kScoreInfinite, beta = kScoreInfinite;
    if (depth >= params::aspirationMinDepth && previousScore != -kScoreInfinite &&
        !isDecisiveScore(previousScore)) {
        alpha = std::max(previousScore - delta, -kScoreInfinite);
        beta = std::min(previousScore + delta, int(kScoreInfinite));
    }
    while (true) {
        const int score = search<Root>(alpha, beta, depth, false, 0);
        if (m_shared.stop.load(std::memory_order_relaxed)) return score;
        if (score <= alpha) {
            if (m_id == 0 && m_shared.time.elapsedMs() > 3000)
                reportInfo(depth, Bound::Upper, m_pvIndex);
            beta = (alpha + beta) / 2;
            alpha = std::max(score - delta, -kScoreInfinite);
        } else if (score >= beta) {
            if (m_id == 0 && m_shared.time.elapsedMs() > 3000)
                reportInfo(depth, Bound::Lower, m_pvIndex);
            beta = std::min(score + delta, int(kScoreInfinite));
        } else {
            return score;
        }
        // The move that failed high (or the old best, after a fail low) is searched first again.
        reorderRootMoves(m_pvIndex, m_rootMoves.size());
        delta += delta / 2;
    }
}

void Worker::reportInfo(int depth, Bound bound, int pvIndex) {
    if (!m_shared.callbacks.onInfo || pvIndex >= m_shared.reportedLines) return;
    const RootMove& rm = m_rootMoves[pvIndex];
    SearchInfo info;
    info.depth = depth;
    info.selDepth = rm.selDepth;
    info.multiPv = pvIndex + 1;
    info.score = reportedScore(rm);
    info.bound = bound;
    info.nodes = m_shared.totalNodes();
    info.tbHits = m_shared.totalTbHits();
    info.timeMs = m_shared.time.elapsedMs();
    info.hashfull = m_shared.hashfullForReport(info.nodes);
    info.wdl = wdlFromScore(info.score, m_rootMaterial);
    info.pv = rm.pv;
    m_shared.callbacks.onInfo(info);
}

void Worker::updatePv(int ply, Move move) {
    m_pv[ply][0] = move;
    for (int i = 0; i < m_pvLength[ply + 1]; ++i) m_pv[ply][i + 1] = m_pv[ply + 1][i];
    m_pvLength[ply] = m_pvLength[ply + 1] + 1;
}

void Worker::updateQuietMove(int ply, Color side, Piece piece, Move m, int bonus) {
    applyBonus<kHistoryMax>(m_butterfly->at(side, stack(ply).threats.all, m), bonus);
    for (int back : kContinuationPlies)
        if (PieceToHistory* cont = stack(ply - back).continuation)
            applyBonus<kHistoryMax>((*cont)[piece][m.to()], bonus);
}

void Worker::updateQuietHistories(int ply, Move best, const Move* quiets, int quietCount,
                                  int depth) {
    const Color us = m_pos.sideToMove();
    const int bonus = historyBonus(depth);
    StackEntry& ss = stack(ply);
    updateQuietMove(ply, us, m_pos.movedPiece(best), best, bonus);
    for (int i = 0; i < quietCount; ++i)
        if (quiets[i] != best)
            updateQuietMove(ply, us, m_pos.movedPiece(quiets[i]), quiets[i], -bonus);
    if (ss.killers[0] != best) {
        ss.killers[1] = ss.killers[0];
        ss.killers[0] = best;
    }
    const StackEntry& prev = stack(ply - 1);
    if (prev.move && prev.move != Move::null())
        m_counters->table[prev.movedPiece][prev.move.to()] = best;
}

void Worker::updateCaptureHistory(Move best, const Move* captures, int captureCount, int depth) {
    const int bonus = historyBonus(depth);
    auto entry = [&](Move m) -> std::int16_t& {
        // Promotions without capture share the pawn slot.
        const PieceType captured = m_pos.isCapture(m) ? m_pos.capturedType(m) : Pawn;
        return m_captureHistory->at(m_pos.movedPiece(m), m.to(), captured);
    };
    if (best && m_pos.isCapture(best)) applyBonus<kHistoryMax>(entry(best), bonus);
    for (int i = 0; i < captureCount; ++i)
        if (captures[i] != best) applyBonus<kHistoryMax>(entry(captures[i]), -bonus);
}

template <Worker::NodeType Type>
int Worker::search(int alpha, int beta, int depth, bool cutNode, int ply) {
    constexpr bool isRoot = Type == Root;
    constexpr bool isPv = Type != NonPV;

    // Step 1. Horizon: resolve captures first.
    if (depth <= 0) return qsearch < isPv ? PV : NonPV > (alpha, beta, ply);

    m_pvLength[ply] = 0;
    // Checked before counting, so a node limit is never overshot.
    if (shouldStop()) return 0;
    countNode();
    if (isPv) m_selDepth = std::max(m_selDepth, ply + 1);
    m_deepestPly = std::max(m_deepestPly, ply);

    StackEntry& ss = stack(ply);
    const bool inCheck = m_pos.inCheck();
    const Move excluded = ss.excluded;

    if (!isRoot) {
        // Step 2. Draws by rule, the ply limit, mate-distance pruning.
        if (isDrawByRule(m_pos, ply)) return kScoreDraw;
        if (ply >= kMaxPly - 1) return inCheck ? kScoreDraw : evaluate();
        alpha = std::max(alpha, matedIn(ply));
        beta = std::min(beta, mateIn(ply + 1));
        if (alpha >= beta) return alpha;
    }

    // Step 3. Transposition table: cut off on a deep enough result outside PV nodes.
    TTData tt;
    const bool ttHit = !excluded && m_shared.tt->probe(m_pos.key(), tt);
    const Move ttMove = isRoot ? m_rootMoves[m_pvIndex].move : ttHit ? tt.move : Move::none();
    const int ttScore = ttHit ? scoreFromTT(tt.score, ply) : kScoreNone;
    const bool ttPv = isPv || (ttHit && tt.wasPv);
    if (!isPv && ttHit && tt.depth >= depth && ttScore != kScoreNone &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && ttScore >= beta) ||
         (tt.bound == Bound::Upper && ttScore <= alpha))) {
        // A quiet hash move that still cuts off earns the history it would earn by searching.
        if (ttMove && ttScore >= beta && !m_pos.isNoisy(ttMove) && m_pos.isPseudoLegal(ttMove)) {
            ss.threats = Threats(m_pos);
            updateQuietMove(ply, m_pos.sideToMove(), m_pos.movedPiece(ttMove), ttMove,
                            historyBonus(depth));
        }
        return ttScore;
    }

    // Step 3b. Tablebases: a WDL probe right after a capture or pawn move (the tables know
    // nothing of the fifty-move counter) decides the node when its bound allows, else bounds a
    // PV node's score. Stored deeper than searched: no search below it knows more.
    int tbFloor = -kScoreInfinite, tbCeiling = kScoreInfinite;
    if (!isRoot && !excluded && m_tbCardinality) {
        if (const auto tb = probeTablebases(depth, ply)) {
            const auto [score, tbBound] = *tb;
            if (tbBound == Bound::Exact ||
                (tbBound == Bound::Lower ? score >= beta : score <= alpha)) {
                m_shared.tt->store(m_pos.key(), Move::none(), scoreToTT(score, ply), kScoreNone,
                                   std::min(kMaxPly - 1, depth + 6), tbBound, ttPv);
                return score;
            }
            if (isPv) {
                if (tbBound == Bound::Lower) {
                    tbFloor = score;
                    alpha = std::max(alpha, score);
                } else {
                    tbCeiling = score;
                }
            }
        }
    }

    // Step 4. Static evaluation, and whether it improved on our previous move. (The fixes of
    // 2026-11-25, `improving` among them, measured +41 +/- 19 together at 40k.)
    // The table keeps the network's raw score; pruning uses it corrected (search/correction.h).
    int rawEval = kScoreNone, staticEval = kScoreNone;
    bool improving = false;
    if (inCheck) {
        ss.staticEval = kScoreNone;
    } else if (excluded) {
        staticEval = ss.staticEval;
    } else {
        rawEval = ttHit && tt.eval != kScoreNone ? tt.eval : evaluate();
        staticEval = ss.staticEval = correctedEval(rawEval);
        if (!ttHit)
            m_shared.tt->store(m_pos.key(), Move::none(), kScoreNone, rawEval, -1, Bound::None,
                               ttPv);
    }
    if (!inCheck) {
        // Against our previous evaluation; two moves back when that one was in check, and
        // improving when neither exists (a check, or the first plies of the search).
        const int earlier = stack(ply - 2).staticEval != kScoreNone ? stack(ply - 2).staticEval
                                                                    : stack(ply - 4).staticEval;
        improving = earlier == kScoreNone || staticEval > earlier;
    }
    // The eval refined by the table's bound, when it says more.
    int eval = staticEval;
    if (!inCheck && ttHit && ttScore != kScoreNone &&
        (tt.bound == (ttScore > eval ? Bound::Lower : Bound::Upper) || tt.bound == Bound::Exact))
        eval = ttScore;

    stack(ply + 1).killers[0] = stack(ply + 1).killers[1] = Move::none();
    stack(ply + 1).excluded = Move::none();

    if (!isPv && !inCheck && !excluded) {
        // Step 5. Razoring: hopeless positions drop straight into quiescence. With step 6:
        // +63 +/- 35 (HCE, 30k).
        if (depth <= params::razorMaxDepth && eval + params::razorMargin * depth < alpha) {
            const int score = qsearch<NonPV>(alpha, alpha + 1, ply);
            if (score <= alpha) return score;
        }
        // Step 6. Reverse futility pruning: far above beta at low depth.
        if (depth <= params::rfpMaxDepth &&
            eval - params::rfpMargin * (depth - improving) >= beta && eval < kScoreTbWinInMaxPly)
            return eval;

        // Step 7. Null-move pruning, verified where zugzwang is likely. +29 +/- 22 (HCE, 30k);
        // with the network -0.6 +/- 22 at 25k before the fixes of 2026-11-25, and +0.0 +/- 22
        // at 100k after them (network #4). The Stockfish-sized reduction below (4 + depth / 3,
        // up to 6 more from the eval) +9.9 [+4.0, +15.8] at 20k (7,554 games, network #5).
        const Bitboard nonPawn =
            m_pos.pieces(m_pos.sideToMove()) & ~m_pos.pieces(m_pos.sideToMove(), Pawn, King);
        if (depth >= params::nullMoveMinDepth && eval >= beta &&
            staticEval >= beta + params::nullMoveMarginBase - params::nullMoveMarginSlope * depth &&
            nonPawn && stack(ply - 1).move != Move::null() && beta > -kScoreTbWinInMaxPly) {
            // Base and per-depth reduction in hundredths of a ply: 4 + depth / 3 at the defaults.
            const int r =
                (params::nullMoveBase + params::nullMoveDepthGain * depth) / 100 +
                std::min((eval - beta) / params::nullMoveEvalDivisor, params::nullMoveEvalMaxR);
            ss.move = Move::null();
            ss.movedPiece = NoPiece;
            ss.continuation = nullptr;
            ss.noisy = false;
            stack(ply + 1).doubleExtensions = ss.doubleExtensions;
            makeNullMove();
            int score = -search<NonPV>(-beta, -beta + 1, depth - r, !cutNode, ply + 1);
            unmakeNullMove();
            if (m_shared.stop.load(std::memory_order_relaxed)) return 0;
            if (score >= beta) {
                if (score >= kScoreTbWinInMaxPly) score = beta;
                // A lone minor piece (or deep searches) risks zugzwang: verify without null move.
                if (depth < params::nullMoveVerifyDepth && moreThanOne(nonPawn)) return score;
                // The verification re-searches this node without trying the null move again.
                // The verification runs as if the previous move had been a null move: no second
                // null move here, and its cutoffs stay out of the counter-move table. (A variant
                // that only forbade the null move lost 9.1 +/- 8.8 Elo over 800 games at 10k
                // nodes, docs/elo-log.md.)
                const Move savedMove = stack(ply - 1).move;
                stack(ply - 1).move = Move::null();
                // At least one ply: quiescence would stand pat on the same static evaluation.
                const int verified =
                    search<NonPV>(beta - 1, beta, std::max(depth - r, 1), false, ply);
                stack(ply - 1).move = savedMove;
                if (verified >= beta) return score;
            }
        }
    }

    // Step 8. ProbCut: a capture that beats beta by a margin in a shallow search would most
    // likely beat beta in the full one too. With history pruning (step 11): +15 +/- 11 at 40k.
    const int probCutBeta = beta + params::probCutMargin;
    if (!isPv && !inCheck && !excluded && depth >= params::probCutMinDepth &&
        std::abs(beta) < kScoreTbWinInMaxPly &&
        !(ttHit && tt.depth >= depth - params::probCutTtDepthMargin && ttScore != kScoreNone &&
          ttScore < probCutBeta)) {
        const OrderingTables noisyTables{m_butterfly.get(), m_captureHistory.get(), {}};
        MovePicker noisyPicker(m_pos, ttMove, noisyTables);
        for (Move m = noisyPicker.next(); m; m = noisyPicker.next()) {
            if (m == excluded || !m_pos.seeGe(m, probCutBeta - staticEval)) continue;
            m_shared.tt->prefetch(m_pos.keyAfter(m));
            ss.move = m;
            ss.movedPiece = m_pos.movedPiece(m);
            ss.continuation = &m_continuation->at(ss.movedPiece, m.to());
            ss.noisy = true;
            stack(ply + 1).doubleExtensions = ss.doubleExtensions;
            makeMove(m);
            // Quiescence first: most captures fail there, cheaply.
            int score = -qsearch<NonPV>(-probCutBeta, -probCutBeta + 1, ply + 1);
            if (score >= probCutBeta)
                score = -search<NonPV>(-probCutBeta, -probCutBeta + 1,
                                       depth - params::probCutDepthReduction, !cutNode, ply + 1);
            unmakeMove();
            if (m_shared.stop.load(std::memory_order_relaxed)) return 0;
            if (score >= probCutBeta) {
                m_shared.tt->store(m_pos.key(), m, scoreToTT(score, ply), rawEval,
                                   depth - params::probCutDepthReduction + 1, Bound::Lower, ttPv);
                return score;
            }
        }
    }

    // Step 9. Internal iterative reduction: without a hash move this node is likely less important.
    // -2.4 +/- 10 at 25k (3,000 games): neutral.
    if (!isRoot && !excluded && depth >= params::iirMinDepth && !ttMove) --depth;

    // Step 10. The move loop.
    const StackEntry& prev = stack(ply - 1);
    const Move counter = prev.move && prev.move != Move::null()
                             ? m_counters->table[prev.movedPiece][prev.move.to()]
                             : Move::none();
    // Continuation histories of the moves 1, 2, 4 and 6 plies back: +73 +/- 27 at 100k with
    // network #4 (switched off in the picker's quiet score, so in LMR and history pruning too).
    // The butterfly history by attacked from/to squares (search/history.h): +15.9 +/- 8.3 at
    // 20k (3,877 games, network #5).
    ss.threats = Threats(m_pos);
    const OrderingTables tables{m_butterfly.get(),
                                m_captureHistory.get(),
                                {stack(ply - 1).continuation, stack(ply - 2).continuation,
                                 stack(ply - 4).continuation, stack(ply - 6).continuation},
                                &ss.threats};
    MovePicker picker(m_pos, ttMove, ss.killers[0], ss.killers[1], counter, tables);

    const CheckSquares checks = m_pos.checkSquares();
    Move quiets[64], captures[32];
    int quietCount = 0, captureCount = 0, moveCount = 0;
    int bestScore = -kScoreInfinite;
    Move bestMove;
    bool skipQuiets = false;
    const int originalAlpha = alpha;

    for (Move m = picker.next(skipQuiets); m; m = picker.next(skipQuiets)) {
        if (m == excluded) continue;
        if (isRoot) {
            // Only root moves of this line and the ones after it (MultiPV).
            const std::size_t i = rootMoveIndex(m);
            if (i < std::size_t(m_pvIndex) || i >= m_pvLast) continue;
        }
        ++moveCount;
        const bool quiet = !m_pos.isNoisy(m);
        const bool givesCheck = m_pos.givesCheck(m, checks);
        // Killers and the counter move come before the quiet stage: score them here too.
        const int history = quiet ? picker.quietScore(m) : 0;

        if (isRoot && m_id == 0) {
            m_rootMove = m;
            m_rootMoveNumber = moveCount + m_pvIndex;
            if (m_shared.callbacks.onCurrMove && m_shared.time.elapsedMs() > 3000)
                m_shared.callbacks.onCurrMove(m, moveCount + m_pvIndex, depth);
        }

        // Step 11. Shallow-depth pruning once a move has held off mate. Late-move + futility
        // pruning +204 +/- 58, SEE pruning +72 +/- 33 (HCE, 30k).
        if (!isRoot && bestScore > -kScoreTbWinInMaxPly) {
            if (quiet) {
                // Late-move pruning: give up on the remaining quiets.
                if (moveCount >= (params::lmpBase + depth * depth) / (2 - improving))
                    skipQuiets = true;
                if (skipQuiets && !givesCheck) continue;
                // Futility pruning: this quiet cannot lift the score to alpha. Only this one:
                // giving up on the rest here would drop the quiet checks ordered after it.
                // (With the picker's check ordering: +11.8 +/- 8.9 at 40k.)
                if (!inCheck && depth <= params::futilityMaxDepth && !givesCheck &&
                    staticEval + params::futilityBase + params::futilityMargin * depth <= alpha)
                    continue;
                // History pruning: a quiet that keeps failing elsewhere is not tried shallow.
                // (Measured with ProbCut, step 8.)
                if (depth <= params::historyPruneMaxDepth &&
                    history < -params::historyPruneMargin * depth)
                    continue;
                if (depth <= params::seeQuietMaxDepth &&
                    !m_pos.seeGe(m, -params::seeQuietMargin * depth))
                    continue;
            } else if (depth <= params::seeNoisyMaxDepth &&
                       !m_pos.seeGe(m, -params::seeNoisyMargin * depth)) {
                continue;
            }
        }

        // Step 12. Singular extensions (with the check extension: +43 +/- 31, HCE, 30k). Checks
        // are no longer extended: dropping that measured +7.8 +/- 5.4 at 20k (8,904 games, SPRT
        // [0, 5] H1; network #5, docs/elo-log.md 2026-11-29). LMR still reduces them a ply less.
        int extension = 0;
        if (!isRoot && m == ttMove && !excluded && depth >= params::singularMinDepth && ttHit &&
            tt.bound != Bound::Upper && tt.depth >= depth - params::singularTtDepthMargin &&
            !isDecisiveScore(ttScore)) {
            const int singularBeta = ttScore - params::singularBetaScale * depth / 100;
            ss.excluded = m;
            const int score =
                search<NonPV>(singularBeta - 1, singularBeta, (depth - 1) / 2, cutNode, ply);
            ss.excluded = Move::none();
            if (score < singularBeta) {
                extension = 1;
                // Far below: a double extension, limited so the tree cannot explode.
                if (!isPv && score < singularBeta - params::doubleExtensionMargin &&
                    ss.doubleExtensions <= params::maxDoubleExtensions)
                    extension = 2;
            } else if (singularBeta >= beta) {
                return singularBeta; // multi-cut: several moves beat beta
            } else if (ttScore >= beta) {
                extension = -1;
            }
        }
        stack(ply + 1).doubleExtensions = ss.doubleExtensions + (extension >= 2);

        m_shared.tt->prefetch(m_pos.keyAfter(m));
        ss.move = m;
        ss.movedPiece = m_pos.movedPiece(m);
        ss.continuation = &m_continuation->at(ss.movedPiece, m.to());
        ss.noisy = !quiet;
        makeMove(m);

        const int newDepth = depth - 1 + extension;
        int score;
        // Step 13. Late-move reductions, then principal variation search. +61 +/- 53 at
        // 5+0.05 (HCE).
        if (depth >= params::lmrMinDepth && moveCount > 1 + isRoot && (quiet || !ttPv)) {
            int r = reduction(depth, moveCount);
            r += !isPv;
            r += cutNode;
            r -= ttPv;
            r -= givesCheck;
            r -= improving;
            if (quiet) r -= history / params::lmrHistoryDivisor;
            r = std::clamp(r, 0, newDepth - 1);
            score = -search<NonPV>(-alpha - 1, -alpha, newDepth - r, true, ply + 1);
            if (score > alpha && r > 0)
                score = -search<NonPV>(-alpha - 1, -alpha, newDepth, !cutNode, ply + 1);
        } else if (!isPv || moveCount > 1) {
            score = -search<NonPV>(-alpha - 1, -alpha, newDepth, !cutNode, ply + 1);
        } else {
            score = alpha + 1; // force the full-window search below
        }
        if (isPv && (moveCount == 1 || score > alpha))
            score = -search<PV>(-beta, -alpha, newDepth, false, ply + 1);

        unmakeMove();
        if (m_shared.stop.load(std::memory_order_relaxed)) return 0;

        if (isRoot) {
            m_rootMoveScored = true;
            if (const std::size_t i = rootMoveIndex(m);
                i >= std::size_t(m_pvIndex) && i < m_rootMoves.size()) {
                RootMove& rm = m_rootMoves[i];
                if (moveCount == 1 || score > alpha) {
                    rm.score = score;
                    rm.scoreBound = score >= beta    ? Bound::Lower
                                    : score <= alpha ? Bound::Upper
                                                     : Bound::Exact;
                    rm.selDepth = m_selDepth;
                    rm.pv.assign(1, m);
                    for (int j = 0; j < m_pvLength[ply + 1]; ++j) rm.pv.push_back(m_pv[ply + 1][j]);
                } else {
                    rm.score = -kScoreInfinite; // keeps the order of moves that failed low
                }
            }
        }

        if (score > bestScore) {
            bestScore = score;
            if (score > alpha) {
                bestMove = m;
                if (isPv) updatePv(ply, m);
                if (score >= beta) break;
                alpha = score;
            }
        }
        if (m != bestMove) {
            if (quiet && quietCount < 64)
                quiets[quietCount++] = m;
            else if (!quiet && captureCount < 32)
                captures[captureCount++] = m;
        }
    }

    // Step 14. Mate, stalemate, or every move excluded.
    if (moveCount == 0) return excluded ? alpha : inCheck ? matedIn(ply) : kScoreDraw;
    // The tables' bound on a PV node (step 3b) holds whatever the moves found.
    if (isPv) bestScore = std::clamp(bestScore, tbFloor, tbCeiling);

    // Histories learn from every node with a best move, fail-high or exact; a capture cutoff
    // also counts against the quiets tried before it. With the hash-move bonus (step 3), the
    // fail-low reward and the plies-4/6 continuations: +40 +/- 20 at 40k.
    if (bestMove) {
        if (!m_pos.isNoisy(bestMove)) {
            updateQuietHistories(ply, bestMove, quiets, quietCount, depth);
        } else {
            const int malus = -historyBonus(depth);
            for (int i = 0; i < quietCount; ++i)
                updateQuietMove(ply, m_pos.sideToMove(), m_pos.movedPiece(quiets[i]), quiets[i],
                                malus);
        }
        updateCaptureHistory(bestMove, captures, captureCount, depth);
    } else if (!isRoot && prev.move && prev.move != Move::null() && !prev.noisy) {
        // Every reply failed low: the opponent's quiet move that led here was a good one.
        updateQuietMove(ply - 1, ~m_pos.sideToMove(), prev.movedPiece, prev.move,
                        historyBonus(depth));
    }

    const Bound bound = bestScore >= beta                   ? Bound::Lower
                        : isPv && bestScore > originalAlpha ? Bound::Exact
                                                            : Bound::Upper;
    // Step 15. Store the result.
    if (!excluded && !(isRoot && m_pvIndex > 0))
        m_shared.tt->store(m_pos.key(), bestMove, scoreToTT(bestScore, ply), rawEval, depth, bound,
                           ttPv);

    // Step 16. Correction history learns the evaluation's error from quiet results whose bound
    // says which side of the static evaluation the truth lies on. +41 +/- 19 at 40k.
    if (!inCheck && !excluded && (!bestMove || !m_pos.isNoisy(bestMove)) &&
        !isDecisiveScore(bestScore) && !(bound == Bound::Lower && bestScore <= staticEval) &&
        !(bound == Bound::Upper && bestScore >= staticEval))
        m_correction->update(m_pos, bestScore - rawEval, depth);
    return bestScore;
}

template <Worker::NodeType Type>
int Worker::qsearch(int alpha, int beta, int ply) {
    constexpr bool isPv = Type == PV;
    if (isPv) m_pvLength[ply] = 0;
    if (shouldStop()) return 0;
    countNode();
    if (isPv) m_selDepth = std::max(m_selDepth, ply + 1);
    m_deepestPly = std::max(m_deepestPly, ply);

    const bool inCheck = m_pos.inCheck();
    if (isDrawByRule(m_pos, ply)) return kScoreDraw;
    if (ply >= kMaxPly - 1) return inCheck ? kScoreDraw : evaluate();

    TTData tt;
    const bool ttHit = m_shared.tt->probe(m_pos.key(), tt);
    const int ttScore = ttHit ? scoreFromTT(tt.score, ply) : kScoreNone;
    if (!isPv && ttHit && ttScore != kScoreNone &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && ttScore >= beta) ||
         (tt.bound == Bound::Upper && ttScore <= alpha)))
        return ttScore;

    // Stand pat: the side to move may decline every capture.
    int bestScore, rawEval = kScoreNone, staticEval = kScoreNone;
    if (inCheck) {
        bestScore = -kScoreInfinite;
    } else {
        rawEval = ttHit && tt.eval != kScoreNone ? tt.eval : evaluate();
        bestScore = staticEval = correctedEval(rawEval);
        if (ttHit && ttScore != kScoreNone &&
            (tt.bound == (ttScore > bestScore ? Bound::Lower : Bound::Upper) ||
             tt.bound == Bound::Exact))
            bestScore = ttScore;
        if (bestScore >= beta) return bestScore;
        alpha = std::max(alpha, bestScore);
    }

    // Only the quiet evasions read the threats (history bucket, threat terms).
    if (inCheck) stack(ply).threats = Threats(m_pos);
    const OrderingTables tables{
        m_butterfly.get(), m_captureHistory.get(), {nullptr, nullptr}, &stack(ply).threats};
    MovePicker picker(m_pos, ttHit ? tt.move : Move::none(), tables);
    Move bestMove;
    int moveCount = 0;
    // Worked out when futility first asks whether a capture gives check.
    std::optional<CheckSquares> checks;
    for (Move m = picker.next(); m; m = picker.next()) {
        ++moveCount;
        if (!inCheck) {
            // Futility: even winning the piece cannot lift the score to alpha.
            const PieceType captured = m_pos.capturedType(m);
            if (m.type() != MoveType::Promotion &&
                staticEval + seeValue(captured) + params::qsFutilityMargin <= alpha) {
                if (!checks) checks = m_pos.checkSquares();
                if (!m_pos.givesCheck(m, *checks)) continue;
            }
            // Losing exchanges are not worth resolving.
            if (!m_pos.seeGe(m, params::qsSeeThreshold)) continue;
        }
        m_shared.tt->prefetch(m_pos.keyAfter(m));
        stack(ply).move = m;
        stack(ply).movedPiece = m_pos.movedPiece(m);
        stack(ply).continuation = &m_continuation->at(stack(ply).movedPiece, m.to());
        stack(ply).noisy = m_pos.isNoisy(m);
        makeMove(m);
        const int score = -qsearch<Type>(-beta, -alpha, ply + 1);
        unmakeMove();
        if (m_shared.stop.load(std::memory_order_relaxed)) return 0;

        if (score > bestScore) {
            bestScore = score;
            if (score > alpha) {
                bestMove = m;
                if (isPv) updatePv(ply, m);
                if (score >= beta) break;
                alpha = score;
            }
        }
    }
    if (inCheck && moveCount == 0) return matedIn(ply);

    // The PV flag is the main search's to set; quiescence keeps what the entry had.
    m_shared.tt->store(m_pos.key(), bestMove, scoreToTT(bestScore, ply), rawEval, 0,
                       bestScore >= beta ? Bound::Lower : Bound::Upper, ttHit && tt.wasPv);
    return bestScore;
}

} // namespace axon::search
