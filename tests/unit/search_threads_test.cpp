// SPDX-License-Identifier: GPL-3.0-or-later
// The search's persistent threads (search/thread_pool.h, search/searcher.h): jobs run on the same
// OS threads search after search, and start, stop, ponderhit, wait, setThreads and destruction
// keep their contracts without deadlocking.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "chess/movegen.h"
#include "engine/bench.h"
#include "search/searcher.h"
#include "search/thread_pool.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;
using namespace search;

// What the onDone callbacks of a series of searches saw.
struct Reports {
    std::mutex mutex;
    std::vector<SearchResult> results;
    std::set<std::thread::id> threads;

    std::function<void(const SearchResult&)> onDone() {
        return [this](const SearchResult& r) {
            std::lock_guard lock(mutex);
            results.push_back(r);
            threads.insert(std::this_thread::get_id());
        };
    }
    std::size_t count() {
        std::lock_guard lock(mutex);
        return results.size();
    }
};

Searcher::Request request(SearchLimits limits, Reports& reports,
                          const std::string& fenText = Position::kStartFen) {
    Searcher::Request r;
    r.position = fen(fenText);
    r.limits = limits;
    r.onDone = reports.onDone();
    return r;
}

SearchLimits depthLimit(int depth) {
    SearchLimits limits;
    limits.depth = depth;
    return limits;
}

SearchLimits nodeLimit(std::uint64_t nodes) {
    SearchLimits limits;
    limits.nodes = nodes;
    return limits;
}

// Long enough to be running when the test acts on it; stop, ponderhit or destruction ends it.
SearchLimits infinite() {
    SearchLimits limits;
    limits.infinite = true;
    return limits;
}

TEST(SearchThreadPool, JobsRunOnTheSameThreadsAndWaitWaitsForThem) {
    ThreadPool pool;
    pool.resize(2);
    EXPECT_EQ(pool.threadsStarted(), 2u);
    std::thread::id seen[2];
    for (int round = 0; round < 200; ++round) {
        std::thread::id now[2];
        std::atomic<int> done{0};
        for (std::size_t i = 0; i < 2; ++i)
            pool.run(i, [&now, &done, i] {
                now[i] = std::this_thread::get_id();
                done.fetch_add(1);
            });
        pool.wait(0);
        pool.wait(1);
        ASSERT_EQ(done.load(), 2) << "wait() returned before its job had run";
        for (std::size_t i = 0; i < 2; ++i) {
            EXPECT_NE(now[i], std::this_thread::get_id());
            if (round == 0) seen[i] = now[i];
            EXPECT_EQ(now[i], seen[i]) << "thread " << i << " in round " << round;
        }
    }
    EXPECT_NE(seen[0], seen[1]);
    EXPECT_EQ(pool.threadsStarted(), 2u);

    // Growing keeps the threads there were; shrinking and growing again starts a new one.
    pool.resize(3);
    EXPECT_EQ(pool.threadsStarted(), 3u);
    std::thread::id first;
    pool.run(0, [&first] { first = std::this_thread::get_id(); });
    pool.wait(0);
    EXPECT_EQ(first, seen[0]);
    pool.resize(1);
    pool.resize(2);
    EXPECT_EQ(pool.size(), 2u);
    EXPECT_EQ(pool.threadsStarted(), 4u);
}

TEST(SearchThreadPool, JobsHandedToABusyThreadFollowInOrder) {
    ThreadPool pool;
    pool.resize(1);
    std::atomic<bool> release{false};
    std::mutex mutex;
    std::vector<int> order;
    pool.run(0, [&] {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::lock_guard lock(mutex);
        order.push_back(1);
    });
    // Handing the second job blocks until the first has finished: release it from elsewhere.
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        release = true;
    });
    pool.run(0, [&] {
        std::lock_guard lock(mutex);
        order.push_back(2);
    });
    pool.wait(0);
    releaser.join();
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

TEST(SearchThreadPool, DestructionFinishesThePendingJob) {
    std::atomic<bool> ran{false};
    {
        ThreadPool pool;
        pool.resize(2);
        pool.run(1, [&ran] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            ran = true;
        });
    }
    EXPECT_TRUE(ran.load());
}

TEST(SearchThreads, HundredsOfShortSearchesReuseTheThreads) {
    for (int threads : {1, 3}) {
        Searcher searcher;
        searcher.setThreads(threads);
        const std::uint64_t started = searcher.threadsStarted();
        // The constructor's thread, and those setThreads added to it.
        EXPECT_EQ(started, std::uint64_t(threads));
        Reports reports;
        const Position start = startPosition();
        constexpr int kSearches = 300;
        for (int i = 0; i < kSearches; ++i) {
            // Alternately the smallest node budget and a first iteration.
            searcher.start(request(i % 2 ? depthLimit(1) : nodeLimit(1), reports));
            searcher.wait();
            ASSERT_EQ(reports.count(), std::size_t(i + 1)) << threads << " threads, search " << i;
            EXPECT_FALSE(searcher.searching());
        }
        for (const SearchResult& r : reports.results)
            EXPECT_TRUE(MoveList(start).contains(r.bestMove)) << threads << " threads";
        EXPECT_EQ(reports.threads.size(), 1u) << "every search reported from the same thread";
        EXPECT_FALSE(reports.threads.count(std::this_thread::get_id()));
        EXPECT_EQ(searcher.threadsStarted(), started) << "searches started threads";
    }
}

TEST(SearchThreads, BackToBackStartsWithoutWaitingReportEverySearch) {
    Searcher searcher;
    searcher.setThreads(3);
    Reports reports;
    constexpr int kSearches = 200;
    // Each start stops the search before it: every one still reports, once.
    for (int i = 0; i < kSearches; ++i) searcher.start(request(depthLimit(6), reports));
    searcher.wait();
    EXPECT_EQ(reports.count(), std::size_t(kSearches));
    const Position start = startPosition();
    for (const SearchResult& r : reports.results) EXPECT_TRUE(MoveList(start).contains(r.bestMove));
}

TEST(SearchThreads, StartWhileRunningStopsTheRunningSearch) {
    Searcher searcher;
    searcher.setThreads(3);
    Reports first, second;
    searcher.start(request(infinite(), first));
    EXPECT_TRUE(searcher.searching());
    searcher.start(request(depthLimit(2), second));
    searcher.wait();
    EXPECT_EQ(first.count(), 1u) << "the infinite search was stopped and reported";
    EXPECT_EQ(second.count(), 1u);
    EXPECT_FALSE(searcher.searching());
    EXPECT_EQ(second.results[0].depth, 2);
}

TEST(SearchThreads, PonderingAndInfiniteSearchesReportOnlyAfterStop) {
    for (int threads : {1, 3}) {
        for (bool ponder : {false, true}) {
            Searcher searcher;
            searcher.setThreads(threads);
            Reports reports;
            // Depth 1 ends the search itself at once; the result must still wait for stop.
            SearchLimits limits = depthLimit(1);
            (ponder ? limits.ponder : limits.infinite) = true;
            searcher.start(request(limits, reports));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            EXPECT_EQ(reports.count(), 0u) << threads << " threads, ponder " << ponder;
            EXPECT_TRUE(searcher.searching());
            searcher.stop();
            searcher.wait();
            EXPECT_EQ(reports.count(), 1u);
            EXPECT_FALSE(searcher.searching());
            EXPECT_TRUE(MoveList(startPosition()).contains(reports.results[0].bestMove));
        }
    }
}

TEST(SearchThreads, PonderhitLetsTheSearchFinishByItself) {
    Searcher searcher;
    searcher.setThreads(3);
    Reports reports;
    SearchLimits limits = depthLimit(3);
    limits.ponder = true;
    searcher.start(request(limits, reports));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(reports.count(), 0u);
    searcher.ponderhit();
    searcher.wait(); // no stop: the depth limit ends it
    EXPECT_EQ(reports.count(), 1u);
    EXPECT_EQ(reports.results[0].depth, 3);
}

TEST(SearchThreads, SetThreadsBetweenSearchesResizesThePool) {
    Searcher searcher;
    EXPECT_EQ(searcher.threadsStarted(), 1u);
    const Position pos = fen(engine::benchPositions()[1]);
    std::uint64_t expected = 1;
    int previous = 1;
    for (int threads : {3, 2, 3, 1, 4, 4}) {
        searcher.setThreads(threads);
        // Only threads beyond those the pool kept are new.
        if (threads > previous) expected += std::uint64_t(threads - previous);
        previous = threads;
        EXPECT_EQ(searcher.threads(), threads);
        EXPECT_EQ(searcher.threadsStarted(), expected) << threads << " threads";
        Reports reports;
        searcher.start(request(depthLimit(5), reports, engine::benchPositions()[1]));
        searcher.wait();
        ASSERT_EQ(reports.count(), 1u);
        EXPECT_TRUE(MoveList(pos).contains(reports.results[0].bestMove)) << threads << " threads";
        EXPECT_EQ(reports.results[0].depth, 5);
    }
}

TEST(SearchThreads, ConcurrentWaitersAllReturnAfterTheResult) {
    Searcher searcher;
    searcher.setThreads(2);
    Reports reports;
    searcher.start(request(infinite(), reports));
    std::atomic<int> returned{0};
    std::atomic<std::size_t> reportsSeen{0};
    std::vector<std::thread> waiters;
    for (int i = 0; i < 3; ++i)
        waiters.emplace_back([&] {
            searcher.wait();
            reportsSeen += reports.count();
            ++returned;
        });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(returned.load(), 0) << "wait() returned while searching infinitely";
    searcher.stop();
    for (auto& t : waiters) t.join();
    EXPECT_EQ(returned.load(), 3);
    EXPECT_EQ(reportsSeen.load(), 3u) << "a waiter returned before the result was reported";
}

TEST(SearchThreads, DestructionStopsARunningSearch) {
    for (int threads : {1, 3}) {
        for (bool ponder : {false, true}) {
            Reports reports;
            {
                Searcher searcher;
                searcher.setThreads(threads);
                SearchLimits limits = infinite();
                limits.ponder = ponder;
                searcher.start(request(limits, reports));
                // Straight away: the threads may not have begun the search yet.
            }
            EXPECT_EQ(reports.count(), 1u) << threads << " threads, ponder " << ponder;
        }
    }
}

TEST(SearchThreads, ANodeLimitCountsOnlyThisSearchsNodes) {
    // The main thread checks `go nodes` against every worker's count; a helper whose job had not
    // begun yet still held the last search's count, and with more threads than cores the next
    // search could stop before its first iteration, unsearched and without an info line.
    Searcher searcher;
    searcher.setThreads(4);
    for (int i = 0; i < 30; ++i) {
        Reports reports;
        searcher.run(request(nodeLimit(i % 2 ? 5000 : 100000), reports,
                             engine::benchPositions()[std::size_t(i)]));
        ASSERT_EQ(reports.count(), 1u);
        EXPECT_GE(reports.results[0].nodes, i % 2 ? 5000u : 100000u) << "search " << i;
        EXPECT_GE(reports.results[0].depth, 1) << "search " << i;
    }
}

TEST(SearchThreads, TheLastInfoLineStartsWithTheMovePlayedWhenAHelperChoosesIt) {
    // Lazy SMP plays a helper's move when the helper completed a deeper iteration with a better
    // score; the GUI shows the last line as the engine's, so that line must be the helper's.
    // Node-limited searches on the bench positions with 4 threads (on 2 cores helpers run ahead
    // of the main thread now and then: this failed before the helper's line was reported; on a
    // machine where no helper is ever chosen it checks the main thread's lines). Each search's
    // last line must start with the move played, with its score.
    Searcher searcher;
    searcher.setThreads(4);
    int checked = 0;
    for (std::uint64_t nodes : {6000u, 20000u, 60000u})
        for (std::size_t i = 0; i < engine::benchPositions().size(); i += 2) {
            Reports reports;
            SearchInfo last;
            Searcher::Request r = request(nodeLimit(nodes), reports, engine::benchPositions()[i]);
            // Reports come from the main thread, the caller's with run().
            r.callbacks.onInfo = [&](const SearchInfo& info) { last = info; };
            searcher.run(std::move(r));
            ASSERT_EQ(reports.count(), 1u);
            const SearchResult& result = reports.results[0];
            if (!result.bestMove) continue;
            ASSERT_FALSE(last.pv.empty()) << engine::benchPositions()[i];
            EXPECT_EQ(last.pv[0], result.bestMove)
                << engine::benchPositions()[i] << " at " << nodes << " nodes";
            EXPECT_EQ(last.score, result.score) << engine::benchPositions()[i];
            ++checked;
        }
    EXPECT_GT(checked, 50);
}

TEST(SearchThreads, RunSearchesOnTheCallersThreadAsStartWouldOnThePool) {
    // One thread: the same tree (fixed nodes are deterministic), reported on the caller's
    // thread before run() returns, and no thread started for it.
    const std::string fenText = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    Reports pooled, here;
    Searcher a, b;
    a.start(request(nodeLimit(20000), pooled, fenText));
    a.wait();
    const std::uint64_t started = b.threadsStarted();
    b.run(request(nodeLimit(20000), here, fenText));
    ASSERT_EQ(here.count(), 1u) << "run() returned before reporting";
    EXPECT_EQ(*here.threads.begin(), std::this_thread::get_id());
    EXPECT_NE(*pooled.threads.begin(), std::this_thread::get_id());
    EXPECT_EQ(here.results[0].bestMove, pooled.results[0].bestMove);
    EXPECT_EQ(here.results[0].nodes, pooled.results[0].nodes);
    EXPECT_EQ(here.results[0].score, pooled.results[0].score);
    EXPECT_EQ(b.threadsStarted(), started);
    EXPECT_FALSE(b.searching());

    // Several threads: helpers on the pool, the result still on the caller's thread.
    Reports smp;
    b.setThreads(3);
    b.run(request(depthLimit(8), smp, fenText));
    ASSERT_EQ(smp.count(), 1u);
    EXPECT_TRUE(smp.results[0].bestMove);
    EXPECT_EQ(*smp.threads.begin(), std::this_thread::get_id());

    // A later background search on the same searcher still works.
    Reports after;
    b.start(request(depthLimit(4), after, fenText));
    b.wait();
    EXPECT_EQ(after.count(), 1u);
}

} // namespace
} // namespace axon::test
