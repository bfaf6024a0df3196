// SPDX-License-Identifier: GPL-3.0-or-later
// Thread orchestration for a search: worker 0 on the pool's thread 0, which also manages the
// search, helpers on the others.
#include "search/searcher.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace axon::search {

namespace {
// AXON_NO_THREADS: built without threads (the single-threaded WebAssembly engine, which runs
// where SharedArrayBuffer is unavailable). The search then runs inside start(), one worker only.
#ifdef AXON_NO_THREADS
constexpr bool kThreaded = false;
#else
constexpr bool kThreaded = true;
#endif
} // namespace

Searcher::Searcher() {
    m_shared.tt = &m_tt;
    m_shared.workers = &m_workers;
    setThreads(1);
}

Searcher::~Searcher() {
    stop();
    wait();
}

void Searcher::setThreads(int count) {
    wait();
    m_workers.clear();
    if (!kThreaded) count = 1;
    count = std::max(1, count);
    for (int i = 0; i < count; ++i) m_workers.push_back(std::make_unique<Worker>(i, m_shared));
    // One thread per worker, started here rather than at the next `go`; those that stay keep
    // their OS thread. Without threads the search runs on the caller's, and the pool stays empty.
    if constexpr (kThreaded) m_pool.resize(std::size_t(count));
    m_tt.setClearThreads(count);
}

void Searcher::setHash(std::size_t megabytes) {
    wait();
    m_tt.resize(megabytes);
}

void Searcher::clear() {
    wait();
    m_tt.clear();
    for (auto& w : m_workers) w->clearHistory();
}

void Searcher::start(Request request) {
    // Without threads the search runs to its end here: nothing can call stop() or ponderhit()
    // meanwhile, so the front end must not ask for an unbounded search.
    if constexpr (!kThreaded) {
        run(std::move(request));
        return;
    }
    std::lock_guard lock(m_startMutex);
    prepareSearch(request.limits.ponder);
    m_pool.run(0, [this, r = std::move(request)]() mutable { runMain(std::move(r)); });
}

void Searcher::run(Request request) {
    // Held to the end: a start() from another thread waits for this search instead of running
    // beside it on the same shared state.
    std::lock_guard lock(m_startMutex);
    prepareSearch(request.limits.ponder);
    runMain(std::move(request));
}

void Searcher::prepareSearch(bool ponder) {
    stop();
    wait();
    m_running = true;
    m_shared.stop = false;
    m_shared.pondering = ponder;
}

void Searcher::runMain(Request request) {
    const SkillSettings& skill = request.skill;
    m_shared.skillNodes = skill.enabled ? skill.nodes : 0;
    m_shared.limits = request.limits;
    m_shared.reportedLines = std::max(1, request.multiPv);
    m_shared.multiPv =
        skill.enabled ? std::max(m_shared.reportedLines, skill.lines) : m_shared.reportedLines;
    m_shared.threadCount = int(m_workers.size());
    m_shared.evalSource = request.evalSource;
    // The request, and so the tables, outlive every worker of this search (waited for below).
    m_shared.tablebases = request.tablebases.get();
    m_shared.tbSettings = request.tbSettings;
    m_shared.callbacks = request.callbacks;
    m_shared.nextProgressMs = request.callbacks.progressIntervalMs;
    m_shared.hashfullSampledNodes = -1;
    m_shared.time.start(request.limits, request.position.sideToMove(), request.moveOverheadMs,
                        request.position.gamePly());
    m_tt.newSearch();

    // The helpers read the position from this frame: it outlives them (waited for below).
    const chess::Position& root = request.position;
    rankRootByTablebases(m_shared, root);
    // Every count from zero before any worker starts: the main thread checks the node limit
    // against all of them, and with more threads than cores a helper's job may begin after
    // the main thread's first checks (a search of `go nodes` then ended at once, unsearched).
    for (auto& worker : m_workers) worker->resetCounts();
    for (std::size_t i = 1; i < m_workers.size(); ++i)
        m_pool.run(i, [this, i, &root] { m_workers[i]->run(root); });
    m_workers[0]->run(root);

    // UCI forbids a best move before `stop` or `ponderhit` while pondering or searching
    // infinitely, even when the search itself has finished.
    while (kThreaded && (m_shared.pondering.load() || request.limits.infinite) &&
           !m_shared.stop.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    m_shared.stop = true;
    for (std::size_t i = 1; i < m_workers.size(); ++i) m_pool.wait(i);

    SearchResult result = m_workers[0]->result();
    result.nodes = m_shared.totalNodes();
    // Lazy SMP: a helper that completed a deeper iteration with a better score knows more. Only
    // with one line and full strength: with MultiPV the main thread's lines are the ones
    // reported and the move played must be the first of them; strength limiting picks among the
    // main thread's lines (applySkill). The chosen helper's line is reported last, so that the
    // GUI's last line starts with the move played.
    Worker* chosen = nullptr;
    if (m_shared.multiPv == 1 && !skill.enabled)
        for (std::size_t i = 1; i < m_workers.size(); ++i) {
            const SearchResult& r = m_workers[i]->result();
            if (r.bestMove && r.depth > result.depth && r.score > result.score) {
                result.bestMove = r.bestMove;
                result.ponderMove = r.ponderMove;
                result.score = r.score;
                result.depth = r.depth;
                chosen = m_workers[i].get();
            }
        }
    if (chosen) chosen->reportBestLine();
    if (skill.enabled) applySkill(skill, *m_workers[0], result);
    m_shared.tablebases = nullptr;
    m_running = false;
    if (request.onDone) request.onDone(result);
}

void Searcher::applySkill(const SkillSettings& skill, const Worker& main, SearchResult& result) {
    const std::span<const RootMove> lines = main.completedLines();
    if (lines.empty()) return;
    std::vector<SkillCandidate> candidates;
    for (const RootMove& rm : lines) candidates.push_back({rm.move, rm.score});
    const RootMove& chosen = lines[pickSkillLine(candidates, skill.margin, skill.seed)];
    result.bestMove = chosen.move;
    result.ponderMove = chosen.pv.size() > 1 ? chosen.pv[1] : chess::Move::none();
    result.score = chosen.score;
}

void Searcher::stop() {
    m_shared.pondering = false;
    m_shared.stop = true;
}

void Searcher::ponderhit() {
    // The clock limits were computed at start; from here they apply.
    m_shared.pondering = false;
}

void Searcher::wait() {
    // Thread 0's job ends after onDone, and it waited for the helpers before reporting. The pool
    // is empty while the constructor sets it up, and always without threads (AXON_NO_THREADS),
    // where start() has finished the search before it returns.
    if (m_pool.size() > 0) m_pool.wait(0);
}

bool Searcher::searching() const { return m_running.load(); }

} // namespace axon::search
