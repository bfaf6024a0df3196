// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve` without a network: message parsing and validation, state/info/bestmove
// formatting, the session's game record, the info throttle, search slots, static paths.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "search/score.h"
#include "server/game.h"
#include "server/hash_budget.h"
#include "server/info_throttle.h"
#include "server/protocol.h"
#include "server/search_slots.h"
#include "server/static_files.h"

using namespace axon;
using namespace axon::server;

namespace {

template <typename T>
const T& requestAs(const ParsedMessage& m) {
    EXPECT_TRUE(m.request.has_value()) << m.error;
    return std::get<T>(*m.request);
}

} // namespace

TEST(ServerProtocol, ParsesEveryMessageType) {
    auto ng = parseClientMessage(
        R"({"type":"newGame","id":7,"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","chess960":true})");
    EXPECT_EQ(ng.id, 7);
    EXPECT_EQ(requestAs<NewGameRequest>(ng).fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    EXPECT_TRUE(requestAs<NewGameRequest>(ng).chess960);

    auto pos = parseClientMessage(R"({"type":"position","moves":["e2e4","e5","Nf3"],"id":"a"})");
    EXPECT_EQ(pos.id, "a");
    EXPECT_EQ(requestAs<PositionRequest>(pos).moves,
              (std::vector<std::string>{"e2e4", "e5", "Nf3"}));
    EXPECT_FALSE(requestAs<PositionRequest>(pos).pgn);
    auto pgn = parseClientMessage(R"({"type":"position","pgn":"1. e4 e5 *"})");
    EXPECT_EQ(*requestAs<PositionRequest>(pgn).pgn, "1. e4 e5 *");

    EXPECT_EQ(requestAs<MoveRequest>(parseClientMessage(R"({"type":"move","move":"e4"})")).move,
              "e4");
    EXPECT_EQ(requestAs<UndoRequest>(parseClientMessage(R"({"type":"undo","plies":2})")).plies, 2);
    EXPECT_EQ(requestAs<UndoRequest>(parseClientMessage(R"({"type":"undo"})")).plies, 1);

    auto go = parseClientMessage(
        R"({"type":"go","nodes":5000,"depth":9,"multipv":3,"play":true,"clock":{"wtime":60000,"btime":-5,"winc":100,"binc":100}})");
    const GoRequest& g = requestAs<GoRequest>(go);
    EXPECT_EQ(*g.nodes, 5000u);
    EXPECT_EQ(*g.depth, 9);
    EXPECT_EQ(*g.multipv, 3);
    EXPECT_TRUE(g.play);
    EXPECT_EQ(g.clock->wtime, 60000);
    EXPECT_EQ(g.clock->btime, -5);
    EXPECT_EQ(g.clock->binc, 100);

    EXPECT_TRUE(
        std::holds_alternative<StopRequest>(*parseClientMessage(R"({"type":"stop"})").request));
    EXPECT_TRUE(
        std::holds_alternative<StateRequest>(*parseClientMessage(R"({"type":"state"})").request));
    auto pieces =
        parseClientMessage(R"({"type":"evalPieces","fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1"})");
    EXPECT_EQ(*requestAs<EvalPiecesRequest>(pieces).fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    EXPECT_FALSE(requestAs<EvalPiecesRequest>(parseClientMessage(R"({"type":"evalPieces"})")).fen);
    auto opt = parseClientMessage(R"({"type":"setOption","name":"Hash","value":32})");
    EXPECT_EQ(requestAs<SetOptionRequest>(opt).value, "32");
    EXPECT_EQ(requestAs<SetOptionRequest>(
                  parseClientMessage(R"({"type":"setOption","name":"Ponder","value":true})"))
                  .value,
              "true");
}

TEST(ServerProtocol, RejectsMalformedMessagesKeepingTheId) {
    struct Case {
        const char* text;
        const char* errorPart;
    };
    const Case cases[] = {
        {"{not json", "malformed JSON"},
        {"", "malformed JSON"},
        {"[1,2]", "JSON object"},
        {R"({"id":1})", "'type'"},
        {R"({"type":5})", "'type'"},
        {R"({"type":"castle"})", "unknown message type 'castle'"},
        {R"({"type":"move"})", "needs a string 'move'"},
        {R"({"type":"move","move":42})", "'move' must be a string"},
        {R"({"type":"undo","plies":0})", "'plies' must be an integer from 1"},
        {R"({"type":"undo","plies":1.5})", "'plies' must be an integer"},
        {R"({"type":"go","nodes":"many"})", "'nodes' must be a number"},
        {R"({"type":"go","depth":-1})", "'depth' must be an integer"},
        {R"({"type":"go","nodes":1e300})", "'nodes' must be an integer"},
        {R"({"type":"go","movetime":100,"infinite":true})", "at most one of"},
        {R"({"type":"go","infinite":true,"play":true})", "cannot play"},
        {R"({"type":"go","clock":{"winc":5}})", "wtime and btime"},
        {R"({"type":"go","clock":{"wtime":"soon","btime":1}})", "'clock.wtime' must be a number"},
        {R"({"type":"go","play":"yes"})", "'play' must be true or false"},
        {R"({"type":"position","moves":"e2e4"})", "'moves' must be an array of strings"},
        {R"({"type":"position","moves":["e2e4",3]})", "'moves' must be an array of strings"},
        {R"({"type":"position","pgn":"1. e4 *","fen":"x"})", "either pgn or fen"},
        {R"({"type":"setOption","value":1})", "needs a string 'name'"},
        {R"({"type":"setOption","name":"Hash","value":[1]})", "'value' must be"},
        {R"({"type":"evalPieces","fen":42})", "'fen' must be a string"},
    };
    for (const Case& c : cases) {
        const ParsedMessage m = parseClientMessage(c.text);
        EXPECT_FALSE(m.request.has_value()) << c.text;
        EXPECT_NE(m.error.find(c.errorPart), std::string::npos) << c.text << " -> " << m.error;
    }
    EXPECT_EQ(parseClientMessage(R"({"type":"undo","plies":"x","id":"keep"})").id, "keep");
    const Json error = Json::parse(formatError("keep", "bad"));
    EXPECT_EQ(error["type"], "error");
    EXPECT_EQ(error["id"], "keep");
    EXPECT_EQ(error["message"], "bad");
    EXPECT_FALSE(Json::parse(formatError(nullptr, "bad")).contains("id"));
}

TEST(ServerProtocol, ClampsThinkingTime) {
    GoRequest go;
    go.movetime = 60000;
    ClampedLimits c = clampGo(go, 5000);
    EXPECT_EQ(c.limits.moveTimeMs, 5000);
    EXPECT_TRUE(c.clamped);
    EXPECT_EQ(c.maxTimeMs, 5000);

    go.movetime = 300;
    c = clampGo(go, 5000);
    EXPECT_EQ(c.limits.moveTimeMs, 300);
    EXPECT_FALSE(c.clamped);

    GoRequest nodes;
    nodes.nodes = 1000;
    c = clampGo(nodes, 5000);
    EXPECT_EQ(c.limits.nodes, 1000u);
    EXPECT_FALSE(c.clamped);
    EXPECT_EQ(c.maxTimeMs, 5000); // still bounded by the cap

    GoRequest infinite;
    infinite.infinite = true;
    c = clampGo(infinite, 5000);
    EXPECT_TRUE(c.limits.infinite);
    EXPECT_TRUE(c.clamped);
    EXPECT_TRUE(clampGo(GoRequest{}, 5000).clamped); // no bound at all

    GoRequest clock;
    clock.clock = ClockLimits{-20, 30000, 0, 500, 0};
    c = clampGo(clock, 5000);
    EXPECT_EQ(c.limits.timeMs[chess::White], 1); // an exhausted clock still searches a little
    EXPECT_EQ(c.limits.timeMs[chess::Black], 30000);
    EXPECT_EQ(c.limits.incMs[chess::Black], 500);
}

TEST(ServerProtocol, UncappedAnalysisIsNotClampedButPlayIs) {
    GoRequest infinite;
    infinite.infinite = true;
    ClampedLimits c = clampGo(infinite, 5000, true);
    EXPECT_TRUE(c.limits.infinite);
    EXPECT_FALSE(c.clamped);
    EXPECT_EQ(c.maxTimeMs, 0); // no deadline
    const Json searching = Json::parse(formatSearching(nullptr, c));
    EXPECT_TRUE(searching["maxTimeMs"].is_null());
    EXPECT_FALSE(searching["clamped"].get<bool>());

    GoRequest movetime;
    movetime.movetime = 60000;
    c = clampGo(movetime, 5000, true);
    EXPECT_EQ(c.limits.moveTimeMs, 60000);
    EXPECT_FALSE(c.clamped);
    EXPECT_EQ(c.maxTimeMs, 60000);

    // A game move is capped for every client.
    movetime.play = true;
    c = clampGo(movetime, 5000, true);
    EXPECT_EQ(c.limits.moveTimeMs, 5000);
    EXPECT_TRUE(c.clamped);
    GoRequest clock;
    clock.play = true;
    clock.clock = ClockLimits{600000, 600000, 0, 0, 0};
    EXPECT_EQ(clampGo(clock, 5000, true).maxTimeMs, 5000);
    EXPECT_EQ(Json::parse(formatSearching(nullptr, clampGo(clock, 5000, true)))["maxTimeMs"], 5000);
}

TEST(ServerProtocol, ProgressNamesTheCurrentMoveInUciAndSan) {
    const chess::Position root = chess::startPosition();
    search::SearchProgress p;
    p.depth = 12;
    p.selDepth = 19;
    p.nodes = 3000000;
    p.timeMs = 1500;
    p.hashfull = 42;
    p.currMove = *chess::parseUciMove(root, "g1f3");
    p.currMoveNumber = 3;
    Json j = Json::parse(formatProgress(7, p, root, false));
    EXPECT_EQ(j["type"], "progress");
    EXPECT_EQ(j["id"], 7);
    EXPECT_EQ(j["depth"], 12);
    EXPECT_EQ(j["seldepth"], 19);
    EXPECT_EQ(j["nodes"], 3000000);
    EXPECT_EQ(j["nps"], 2000000);
    EXPECT_EQ(j["hashfull"], 42);
    EXPECT_EQ(j["time"], 1500);
    EXPECT_EQ(j["currmove"], "g1f3");
    EXPECT_EQ(j["currmoveSan"], "Nf3");
    EXPECT_EQ(j["currmovenumber"], 3);
    // Before the first root move (or a move not legal at the root) there is no current move.
    p.currMove = chess::Move::none();
    j = Json::parse(formatProgress(nullptr, p, root, false));
    EXPECT_FALSE(j.contains("currmove"));
    EXPECT_FALSE(j.contains("id"));
}

TEST(ServerHashBudget, PaysForHashBeyondTheDefaultsAndTakesItBack) {
    HashBudget budget(100);
    EXPECT_TRUE(budget.take(60));
    EXPECT_FALSE(budget.take(50)); // all or nothing
    EXPECT_EQ(budget.leftMb(), 40);
    EXPECT_TRUE(budget.take(40));
    EXPECT_EQ(budget.leftMb(), 0);
    EXPECT_TRUE(budget.take(0));
    budget.giveBack(60);
    EXPECT_EQ(budget.leftMb(), 60);
    budget.giveBack(1000); // never more than was taken
    EXPECT_EQ(budget.leftMb(), 100);
    EXPECT_FALSE(HashBudget(-5).take(1));
}

TEST(ServerProtocol, StateDescribesTheGame) {
    Game game;
    ASSERT_FALSE(game.play("e4"));
    ASSERT_FALSE(game.play("e7e5"));
    Json s = stateJson(game, false);
    EXPECT_EQ(s["type"], "state");
    EXPECT_EQ(s["turn"], "white");
    EXPECT_EQ(s["status"], "ongoing");
    EXPECT_TRUE(s["winner"].is_null());
    EXPECT_EQ(s["moves"].size(), 2u);
    EXPECT_EQ(s["moves"][0]["uci"], "e2e4");
    EXPECT_EQ(s["moves"][0]["san"], "e4");
    EXPECT_EQ(s["moves"][1]["san"], "e5");
    EXPECT_EQ(s["legalMoves"].size(), 29u);
    EXPECT_EQ(s["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");

    // Fool's mate: checkmate, black wins, nothing legal.
    Game mate;
    for (const char* m : {"f3", "e5", "g4", "Qh4#"}) ASSERT_FALSE(mate.play(m)) << m;
    s = stateJson(mate, false);
    EXPECT_EQ(s["status"], "checkmate");
    EXPECT_EQ(s["winner"], "black");
    EXPECT_TRUE(s["check"].get<bool>());
    EXPECT_TRUE(s["legalMoves"].empty());

    auto stalemate = Game::fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false);
    ASSERT_TRUE(stalemate);
    EXPECT_EQ(stateJson(*stalemate, false)["status"], "stalemate");
    auto bare = Game::fromFen("8/8/4k3/8/8/3K4/8/8 w - - 0 1", false);
    EXPECT_EQ(stateJson(*bare, false)["status"], "insufficient-material");
    auto fifty = Game::fromFen("8/8/4k3/8/8/3K4/8/R7 w - - 100 80", false);
    EXPECT_EQ(stateJson(*fifty, false)["status"], "fifty-moves");
    Game repeat;
    for (int i = 0; i < 2; ++i)
        for (const char* m : {"Nf3", "Nf6", "Ng1", "Ng8"}) ASSERT_FALSE(repeat.play(m));
    EXPECT_EQ(stateJson(repeat, false)["status"], "repetition");
}

TEST(ServerProtocol, InfoAndBestMoveCarryUciAndSan) {
    const chess::Position root = chess::startPosition();
    search::SearchInfo info;
    info.depth = 5;
    info.selDepth = 7;
    info.score = 31;
    info.bound = search::Bound::Lower;
    info.nodes = 12000;
    info.timeMs = 40;
    info.hashfull = 3;
    info.wdl = {600, 300, 100};
    chess::Position p = root;
    for (const char* m : {"e2e4", "e7e5", "g1f3"}) {
        const chess::Move mv = *chess::parseUciMove(p, m);
        info.pv.push_back(mv);
        p.makeMove(mv);
    }
    Json j = Json::parse(formatInfo(3, info, root, false));
    EXPECT_EQ(j["type"], "info");
    EXPECT_EQ(j["id"], 3);
    EXPECT_EQ(j["depth"], 5);
    EXPECT_EQ(j["seldepth"], 7);
    EXPECT_EQ(j["score"]["cp"], 31);
    EXPECT_EQ(j["score"]["bound"], "lower");
    EXPECT_EQ(j["nps"], 300000);
    EXPECT_EQ(j["wdl"], (Json{600, 300, 100}));
    EXPECT_EQ(j["pv"], (Json{"e2e4", "e7e5", "g1f3"}));
    EXPECT_EQ(j["pvSan"], (Json{"e4", "e5", "Nf3"}));

    info.score = search::mateIn(3);
    info.bound = search::Bound::Exact;
    j = Json::parse(formatInfo(nullptr, info, root, false));
    EXPECT_EQ(j["score"]["mate"], 2);
    EXPECT_FALSE(j["score"].contains("cp"));
    EXPECT_EQ(j["score"]["bound"], "exact");

    Json best = Json::parse(formatBestMove(1, info.pv[0], info.pv[1], root, false, true));
    EXPECT_EQ(best["move"], "e2e4");
    EXPECT_EQ(best["san"], "e4");
    EXPECT_EQ(best["ponder"], "e7e5");
    EXPECT_EQ(best["ponderSan"], "e5");
    EXPECT_TRUE(best["played"].get<bool>());
    // A move that is not legal at the root is never reported as one.
    best = Json::parse(formatBestMove(1, info.pv[1], chess::Move::none(), root, false, false));
    EXPECT_TRUE(best["move"].is_null());
    // A PV that turns illegal stops its SAN there.
    EXPECT_EQ(pvToSan(root, {info.pv[0], info.pv[0]}).size(), 1u);
}

TEST(ServerProtocol, PiecesListEveryContributionFromWhitesView) {
    engine::PieceContributions c;
    c.base = -35;
    c.pieces = {{chess::D1, chess::WhiteQueen, 912}, {chess::E5, chess::BlackPawn, -88}};
    const Json j = Json::parse(formatPieces(4, "fen text", c));
    EXPECT_EQ(j["type"], "pieces");
    EXPECT_EQ(j["id"], 4);
    EXPECT_EQ(j["fen"], "fen text");
    EXPECT_EQ(j["base"], -35);
    ASSERT_EQ(j["pieces"].size(), 2u);
    EXPECT_EQ(j["pieces"][0], Json({{"square", "d1"}, {"piece", "Q"}, {"cp", 912}}));
    EXPECT_EQ(j["pieces"][1], Json({{"square", "e5"}, {"piece", "p"}, {"cp", -88}}));
    EXPECT_FALSE(Json::parse(formatPieces(nullptr, "f", {})).contains("id"));
    EXPECT_TRUE(Json::parse(formatPieces(nullptr, "f", {}))["pieces"].empty());
}

TEST(ServerGame, MovesInUciOrSanIllegalOnesRejected) {
    Game game;
    EXPECT_FALSE(game.play("e2e4"));
    EXPECT_FALSE(game.play("c5"));
    EXPECT_FALSE(game.play("Nf3"));
    const std::string fen = game.fen();
    for (const char* bad : {"e2e4", "Ke3", "xyz", "", "e7e4", "nc6", "a1a8q"}) {
        EXPECT_TRUE(game.play(bad).has_value()) << bad;
        EXPECT_EQ(game.fen(), fen) << bad;
    }
    EXPECT_EQ(game.moves().size(), 3u);
    EXPECT_EQ(game.moves()[2].san, "Nf3");
    EXPECT_TRUE(game.undo(4).has_value());
    EXPECT_EQ(game.moves().size(), 3u);
    EXPECT_FALSE(game.undo(2));
    EXPECT_EQ(game.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(game.uciMoves(), (std::vector<std::string>{"e2e4"}));
}

TEST(ServerGame, FenPgnAndChess960) {
    EXPECT_FALSE(Game::fromFen("not a fen", false));
    EXPECT_FALSE(Game::fromPgn("this is [not pgn"));
    EXPECT_FALSE(Game::fromPgn(""));
    auto pgn = Game::fromPgn("[Event \"t\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n");
    ASSERT_TRUE(pgn) << pgn.error();
    EXPECT_EQ(pgn->moves().size(), 6u);
    EXPECT_EQ(pgn->moves()[4].san, "Bb5");
    EXPECT_FALSE(Game::fromPgn("1. e4 e5 2. Ke3 *"));

    // Chess960 castling is written king-takes-rook.
    auto c960 =
        Game::fromFen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", false);
    ASSERT_TRUE(c960) << c960.error();
    EXPECT_TRUE(c960->chess960());
    auto standard960 = Game::fromFen("", true);
    ASSERT_TRUE(standard960);
    EXPECT_TRUE(standard960->chess960());
    ASSERT_FALSE(standard960->play("e4"));
    ASSERT_FALSE(standard960->play("e5"));
    ASSERT_FALSE(standard960->play("Nf3"));
    ASSERT_FALSE(standard960->play("Nc6"));
    ASSERT_FALSE(standard960->play("Bc4"));
    ASSERT_FALSE(standard960->play("Bc5"));
    ASSERT_FALSE(standard960->play("O-O"));
    EXPECT_EQ(standard960->moves().back().uci, "e1h1");
    EXPECT_EQ(standard960->moves().back().san, "O-O");
}

TEST(ServerInfoThrottle, KeepsTheLastLineOfEachDepth) {
    InfoThrottle throttle(50);
    auto line = [](int depth, int multipv = 1, std::uint64_t nodes = 0) {
        search::SearchInfo i;
        i.depth = depth;
        i.multiPv = multipv;
        i.nodes = nodes;
        return i;
    };
    EXPECT_EQ(throttle.offer(line(1), 0).size(), 1u); // the first goes out at once
    EXPECT_TRUE(throttle.offer(line(2, 1, 10), 1).empty());
    EXPECT_TRUE(throttle.offer(line(2, 1, 20), 2).empty()); // replaces the held depth-2 line
    auto out = throttle.offer(line(3), 3);                  // depth 2 is over: its last line goes
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].depth, 2);
    EXPECT_EQ(out[0].nodes, 20u);
    out = throttle.offer(line(3, 2), 60); // the interval has passed: everything held goes
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].multiPv, 1);
    EXPECT_EQ(out[1].multiPv, 2);
    EXPECT_TRUE(throttle.offer(line(4), 61).empty());
    out = throttle.flush();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].depth, 4);
    EXPECT_TRUE(throttle.flush().empty());

    // Many lines of one depth in a burst: at most one per interval, plus the last at the end.
    InfoThrottle burst(50);
    int sent = 0;
    for (int t = 0; t < 1000; ++t)
        sent += int(burst.offer(line(20, 1, std::uint64_t(t)), t).size());
    EXPECT_LE(sent, 21);
    out = burst.flush();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].nodes, 999u);

    // A completed depth's lines in a burst: the first goes, the others are held until a timer
    // (the progress reports) finds the interval passed, not until the next depth's line.
    InfoThrottle timed(50);
    EXPECT_TRUE(timed.due(0).empty()); // nothing held
    EXPECT_EQ(timed.offer(line(30, 1), 1000).size(), 1u);
    EXPECT_TRUE(timed.offer(line(30, 2), 1001).empty());
    EXPECT_TRUE(timed.offer(line(30, 3), 1002).empty());
    EXPECT_TRUE(timed.due(1020).empty()); // within the interval
    out = timed.due(1200);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].multiPv, 2);
    EXPECT_EQ(out[1].multiPv, 3);
    EXPECT_TRUE(timed.due(1400).empty());
    EXPECT_TRUE(timed.flush().empty());
}

TEST(ServerSearchSlots, QueuesInOrderAndRefusesWhenFull) {
    SearchSlots slots(1, 2);
    int position = 0;
    EXPECT_EQ(slots.acquire(
                  1, 1, [] { return true; }, position),
              SearchSlots::Outcome::Started);
    std::atomic<int> started{0};
    std::atomic<int> order{0};
    EXPECT_EQ(slots.acquire(
                  2, 1,
                  [&] {
                      order = order * 10 + 2;
                      ++started;
                      return true;
                  },
                  position),
              SearchSlots::Outcome::Queued);
    EXPECT_EQ(position, 1);
    EXPECT_EQ(slots.acquire(
                  3, 1,
                  [&] {
                      order = order * 10 + 3;
                      ++started;
                      return true;
                  },
                  position),
              SearchSlots::Outcome::Queued);
    EXPECT_EQ(position, 2);
    EXPECT_EQ(slots.acquire(
                  4, 1, [] { return true; }, position),
              SearchSlots::Outcome::Refused);
    EXPECT_TRUE(slots.cancel(3));
    EXPECT_FALSE(slots.cancel(3));
    EXPECT_EQ(slots.acquire(
                  5, 1,
                  [&] {
                      order = order * 10 + 5;
                      ++started;
                      return false;
                  },
                  position),
              SearchSlots::Outcome::Queued);
    slots.release(1); // to 2
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (started < 1 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(order, 2);
    slots.release(1); // to 5, which declines: the slot comes back
    while (started < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(order, 25);
    while (slots.freeSlots() != 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    EXPECT_EQ(slots.freeSlots(), 1);
    EXPECT_EQ(slots.queued(), 0);
}

TEST(ServerSearchSlots, ASearchTakesOneSlotPerThreadFirstComeFirstServed) {
    SearchSlots slots(4, 8);
    EXPECT_EQ(slots.capacity(), 4);
    int position = 0;
    EXPECT_EQ(slots.acquire(
                  1, 3, [] { return true; }, position),
              SearchSlots::Outcome::Started);
    EXPECT_EQ(slots.freeSlots(), 1);
    std::atomic<int> order{0};
    // Three threads wait: a later one-thread search may not overtake it (no starvation).
    EXPECT_EQ(slots.acquire(
                  2, 3,
                  [&] {
                      order = order * 10 + 2;
                      return true;
                  },
                  position),
              SearchSlots::Outcome::Queued);
    EXPECT_EQ(slots.acquire(
                  3, 1,
                  [&] {
                      order = order * 10 + 3;
                      return true;
                  },
                  position),
              SearchSlots::Outcome::Queued);
    EXPECT_EQ(position, 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(order, 0);
    slots.release(3); // 4 free: the three-thread search, then the one-thread one
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (order != 23 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(order, 23);
    EXPECT_EQ(slots.freeSlots(), 0);
    // More than the capacity is clamped to it: such a search can still run alone.
    slots.release(3);
    slots.release(1);
    EXPECT_EQ(slots.acquire(
                  4, 100, [] { return true; }, position),
              SearchSlots::Outcome::Started);
    EXPECT_EQ(slots.freeSlots(), 0);
    slots.release(100);
    EXPECT_EQ(slots.freeSlots(), 4);
}

TEST(ServerStaticFiles, RefusesTraversalAndResolvesInsideTheRoot) {
    namespace fs = std::filesystem;
    const fs::path base = fs::temp_directory_path() / ("axon-static-" + std::to_string(::getpid()));
    fs::remove_all(base);
    fs::create_directories(base / "root" / "assets");
    std::ofstream(base / "root" / "index.html") << "<p>hi</p>";
    std::ofstream(base / "root" / "assets" / "app.js") << "1";
    std::ofstream(base / "root" / ".secret") << "x";
    std::ofstream(base / "outside.txt") << "secret";
    fs::create_symlink(base / "outside.txt", base / "root" / "link.txt");
    const fs::path root = base / "root";

    auto verdict = [&](const char* url) { return resolveStaticPath(root, url).verdict; };
    EXPECT_EQ(verdict("/"), PathVerdict::Ok);
    EXPECT_EQ(resolveStaticPath(root, "/").file.filename(), "index.html");
    EXPECT_EQ(verdict("/assets/app.js"), PathVerdict::Ok);
    EXPECT_EQ(verdict("/assets/app.js?v=3"), PathVerdict::Ok);
    EXPECT_EQ(verdict("/assets/%61pp.js"), PathVerdict::Ok);
    EXPECT_EQ(verdict("//assets//app.js"), PathVerdict::Ok);
    EXPECT_EQ(verdict("/missing.js"), PathVerdict::NotFound);
    EXPECT_EQ(verdict("/assets"), PathVerdict::NotFound); // a folder without index.html
    for (const char* bad :
         {"/../outside.txt", "/assets/../../outside.txt", "/%2e%2e/outside.txt",
          "/%2E%2E/outside.txt", "/..%2foutside.txt", "/assets/..", "/.secret",
          "/a\\..\\outside.txt", "/%00", "/%zz", "/%2", "relative.txt", "/link.txt"})
        EXPECT_EQ(verdict(bad), PathVerdict::Forbidden) << bad;
    // A raw NUL (found by fuzz_http) or other control character: the name would be cut there.
    EXPECT_FALSE(safeRelativePath(std::string_view("/index.html\0.png", 16)));
    EXPECT_FALSE(safeRelativePath("/index.html%0a"));
    EXPECT_FALSE(safeRelativePath("/a\tb"));
    EXPECT_FALSE(safeRelativePath("/a\x7f"));
    // An absolute file-system path in the URL stays inside the root.
    EXPECT_EQ(verdict((std::string("/") + (base / "outside.txt").string()).c_str()),
              PathVerdict::NotFound);

    EXPECT_EQ(mimeTypeFor("a/index.html"), "text/html; charset=utf-8");
    EXPECT_EQ(mimeTypeFor("engine.WASM"), "application/wasm");
    EXPECT_EQ(mimeTypeFor("app.js"), "text/javascript; charset=utf-8");
    EXPECT_EQ(mimeTypeFor("style.css"), "text/css; charset=utf-8");
    EXPECT_EQ(mimeTypeFor("blob"), "application/octet-stream");
    std::string decoded;
    EXPECT_TRUE(percentDecode("a%20b%2Fc", decoded));
    EXPECT_EQ(decoded, "a b/c");
    fs::remove_all(base);
}
