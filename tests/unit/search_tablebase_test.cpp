// SPDX-License-Identifier: GPL-3.0-or-later
// The search with Syzygy tables (docs/tablebases.md): Lazy SMP threads opening and probing the
// same tables at once (the ThreadSanitizer build runs this file), root moves ranked so that
// MultiPV lists wins before draws and each line keeps its rank, searchmoves ranked alone.
#include <algorithm>
#include <mutex>
#include <vector>

#include "chess/uci_move.h"
#include "search/searcher.h"
#include "tablebase/tablebases.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;
using namespace search;

std::shared_ptr<const tablebase::Tablebases> sharedTables() {
    auto tb = tablebase::Tablebases::open(sharedData("syzygy").string());
    EXPECT_TRUE(tb.ok()) << (tb.ok() ? "" : tb.error());
    return tb.ok() ? *tb : nullptr;
}

struct TableSearch {
    SearchResult result;
    std::vector<SearchInfo> infos;
};

TableSearch searchWithTables(const std::string& fenText, SearchLimits limits, int threads,
                             int multiPv, std::shared_ptr<const tablebase::Tablebases> tables) {
    Searcher searcher;
    searcher.setThreads(threads);
    searcher.setHash(8);
    Searcher::Request request;
    request.position = fen(fenText);
    request.limits = std::move(limits);
    request.multiPv = multiPv;
    request.tablebases = std::move(tables);
    TableSearch run;
    std::mutex mutex;
    request.callbacks.onInfo = [&](const SearchInfo& info) {
        std::lock_guard lock(mutex);
        run.infos.push_back(info);
    };
    request.onDone = [&](const SearchResult& r) { run.result = r; };
    searcher.start(std::move(request));
    searcher.wait();
    return run;
}

// Five pieces at the root (more than the tables hold): the threads probe after captures, and
// open the four-piece files for the first time all at once.
TEST(SearchTablebase, LazySmpThreadsShareTheTables) {
    AXON_REQUIRE_DATA(sharedData("syzygy"));
    auto tables = sharedTables();
    ASSERT_TRUE(tables);
    SearchLimits limits;
    limits.depth = kSanitizedBuild ? 7 : 10;
    const TableSearch run =
        searchWithTables("8/8/2k5/8/3r4/8/3R4/K3Q3 w - - 0 1", limits, 4, 1, tables);
    ASSERT_FALSE(run.infos.empty());
    EXPECT_GT(run.infos.back().tbHits, 0u);
    EXPECT_TRUE(isDecisiveScore(run.result.score) && run.result.score > 0)
        << "KQR against KR is won: " << run.result.score;
    EXPECT_TRUE(tables->takeErrors().empty());
}

// KRvK with three moves that give the rook away (Rd4, Re4+, Rf4): every line before them wins,
// they come last as draws, and a searchmoves of one of them ranks only that one.
TEST(SearchTablebase, MultiPvListsWinsBeforeDrawsAndSearchMovesRanksAlone) {
    AXON_REQUIRE_DATA(sharedData("syzygy"));
    auto tables = sharedTables();
    ASSERT_TRUE(tables);
    const std::string position = "8/8/8/4k3/7R/8/8/K7 w - - 0 1";
    SearchLimits limits;
    limits.depth = 4;
    const TableSearch run = searchWithTables(position, limits, 1, 17, tables);
    std::vector<SearchInfo> lastDepth;
    for (const SearchInfo& info : run.infos)
        if (info.depth == 4) lastDepth.push_back(info);
    ASSERT_EQ(lastDepth.size(), 17u);
    std::vector<std::string> draws;
    for (std::size_t i = 0; i < lastDepth.size(); ++i) {
        const SearchInfo& line = lastDepth[i];
        ASSERT_FALSE(line.pv.empty());
        if (i < 14) {
            EXPECT_TRUE(isDecisiveScore(line.score) && line.score > 0)
                << "line " << i + 1 << " " << toUci(line.pv[0], false) << " " << line.score;
        } else {
            EXPECT_EQ(line.score, kScoreDraw) << "line " << i + 1;
            draws.push_back(toUci(line.pv[0], false));
        }
    }
    std::sort(draws.begin(), draws.end());
    EXPECT_EQ(draws, (std::vector<std::string>{"h4d4", "h4e4", "h4f4"}));

    Position pos = fen(position);
    limits.searchMoves = {*parseUciMove(pos, "h4f4")};
    const TableSearch only = searchWithTables(position, limits, 1, 1, tables);
    EXPECT_EQ(toUci(only.result.bestMove, false), "h4f4");
    EXPECT_EQ(only.result.score, kScoreDraw);
}

} // namespace
} // namespace axon::test
