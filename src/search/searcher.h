// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a search on a pool of threads (Lazy SMP) in the background: start, stop, wait. The threads
// live as long as the Searcher (or until setThreads) and sleep between searches. Built with
// AXON_NO_THREADS (single-threaded WebAssembly), start() searches to the end before returning.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "search/search.h"
#include "search/skill.h"
#include "search/thread_pool.h"

namespace axon::search {

class Searcher {
  public:
    Searcher();
    ~Searcher();

    void setThreads(int count);
    int threads() const { return int(m_workers.size()); }
    void setHash(std::size_t megabytes);
    std::size_t hashMegabytes() const { return m_tt.sizeMegabytes(); }
    // Forgets everything learned: hash table and histories (UCI ucinewgame / Clear Hash).
    void clear();

    struct Request {
        chess::Position position;
        SearchLimits limits;
        int multiPv = 1;
        int moveOverheadMs = 10;
        // Strength limiting: a node budget, extra internal lines and a seeded choice among them.
        SkillSettings skill;
        // The network (or none: the hand-written evaluation) every thread evaluates with.
        eval::EvalSource evalSource;
        // Syzygy tables to probe (none: no probes), held for the search's length.
        std::shared_ptr<const tablebase::Tablebases> tablebases;
        TablebaseSettings tbSettings;
        SearchCallbacks callbacks;
        // Called once with the final result when the search ends (after stop while pondering).
        std::function<void(const SearchResult&)> onDone;
    };
    // Starts searching in the background; a running search is stopped first.
    void start(Request request);
    // Searches on the calling thread and returns once onDone has run (helpers, when there are
    // several threads, still run on the pool). With one thread this saves the hand-over to the
    // pool's thread and back, two context switches a search: datagen and labelling search
    // thousands of small trees a second. A search that would wait for `stop` (infinite,
    // pondering) needs another thread to call stop().
    void run(Request request);
    // Asks the running search to finish now (its result is still reported).
    void stop();
    // Ends pondering: the search continues under normal time control from now on.
    void ponderhit();
    // Blocks until the running search (if any) has reported its result.
    void wait();
    bool searching() const;
    // OS threads started for searching so far: by the constructor and by setThreads adding
    // threads, never by a search (tests check that the pool is reused).
    std::uint64_t threadsStarted() const { return m_pool.threadsStarted(); }

  private:
    // Stops and waits for a running search, then marks a new one as running (start, run).
    void prepareSearch(bool ponder);
    void runMain(Request request);
    // Replaces the best move by the skill choice among the last completed iteration's lines.
    static void applySkill(const SkillSettings& skill, const Worker& main, SearchResult& result);

    TranspositionTable m_tt;
    SharedSearchState m_shared;
    std::vector<std::unique_ptr<Worker>> m_workers;
    // Serializes start() and run(): a second start() stops the search the first one started,
    // and waits while run() searches.
    std::mutex m_startMutex;
    std::atomic<bool> m_running{false};
    // Thread i runs worker i; thread 0 also runs the rest of the search (runMain). Last, so it is
    // destroyed first: no thread outlives the workers and the shared state it searches with.
    ThreadPool m_pool;
};

} // namespace axon::search
