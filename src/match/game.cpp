// SPDX-License-Identifier: GPL-3.0-or-later
// The game loop: ask the side to move, check and apply its move, and decide when it is over.
#include "match/game.h"

#include <cstdio>
#include <cstdlib>

#include "chess/fen.h"
#include "chess/rules.h"
#include "chess/uci_move.h"

namespace axon::match {

namespace {

constexpr int kMateScore = 100000;

const char* colorName(chess::Color c) { return c == chess::White ? "White" : "Black"; }

GameOutcome winFor(chess::Color c) {
    return c == chess::White ? GameOutcome::WhiteWins : GameOutcome::BlackWins;
}

// A mate score as a very large centipawn score, so the adjudication thresholds apply to it.
std::optional<int> comparableScore(const GameMove& m) {
    if (m.scoreMate)
        return *m.scoreMate > 0 ? kMateScore - *m.scoreMate : -kMateScore - *m.scoreMate;
    return m.scoreCp;
}

// Streaks of plies supporting each adjudication rule; each ply belongs to alternate engines, so
// K moves of both engines are 2K plies.
class Adjudicator {
  public:
    explicit Adjudicator(const Adjudication& rules) : m_rules(rules) {}

    // Called after each engine move; returns an outcome when the game is adjudicated.
    std::optional<GameOutcome> update(chess::Color mover, const GameMove& move, int fullmove) {
        const auto score = comparableScore(move);
        if (!score) {
            m_resignPlies = m_drawPlies = 0;
            return std::nullopt;
        }
        const int whiteView = mover == chess::White ? *score : -*score;
        if (m_rules.resignMoveCount > 0) {
            const int sign = whiteView >= m_rules.resignScore    ? 1
                             : whiteView <= -m_rules.resignScore ? -1
                                                                 : 0;
            m_resignPlies = (sign != 0 && sign == m_resignSign) ? m_resignPlies + 1 : (sign != 0);
            m_resignSign = sign;
            if (m_resignPlies >= 2 * m_rules.resignMoveCount)
                return sign > 0 ? GameOutcome::WhiteWins : GameOutcome::BlackWins;
        }
        if (m_rules.drawMoveCount > 0) {
            if (fullmove >= m_rules.drawMoveNumber && std::abs(whiteView) <= m_rules.drawScore)
                ++m_drawPlies;
            else
                m_drawPlies = 0;
            if (m_drawPlies >= 2 * m_rules.drawMoveCount) return GameOutcome::Draw;
        }
        return std::nullopt;
    }

  private:
    Adjudication m_rules;
    int m_resignPlies = 0;
    int m_resignSign = 0;
    int m_drawPlies = 0;
};

std::string formatComment(const GameMove& m) {
    char buf[64];
    std::string eval;
    if (m.scoreMate) {
        std::snprintf(buf, sizeof buf, "%sM%d", *m.scoreMate >= 0 ? "+" : "-",
                      std::abs(*m.scoreMate));
        eval = buf;
    } else if (m.scoreCp) {
        std::snprintf(buf, sizeof buf, "%+.2f", *m.scoreCp / 100.0);
        eval = buf;
    }
    std::snprintf(buf, sizeof buf, "%.3fs", double(m.timeMs) / 1000.0);
    if (eval.empty()) return buf;
    return eval + "/" + std::to_string(m.depth) + " " + buf;
}

} // namespace

const char* resultString(GameOutcome outcome) {
    switch (outcome) {
    case GameOutcome::WhiteWins: return "1-0";
    case GameOutcome::BlackWins: return "0-1";
    case GameOutcome::Draw: return "1/2-1/2";
    case GameOutcome::Unfinished: break;
    }
    return "*";
}

GameRecord playGame(Engine& white, Engine& black, const Opening& opening,
                    const GameSettings& settings, const std::atomic<bool>* stop) {
    GameRecord record;
    record.opening = opening;
    Engine* engines[2] = {&white, &black};

    auto finish = [&](GameOutcome outcome, std::string reason, const char* termination) {
        record.outcome = outcome;
        record.reason = std::move(reason);
        record.termination = termination;
        return record;
    };

    auto start = chess::parseFen(opening.fen);
    if (!start)
        return finish(GameOutcome::Unfinished, "bad opening: " + start.error(), "unterminated");
    chess::Position pos = *start;
    pos.setChess960(opening.chess960);
    std::vector<std::string> moves;
    for (const auto& text : opening.moves) {
        auto m = chess::parseUciMove(pos, text);
        if (!m) return finish(GameOutcome::Unfinished, "bad opening move " + text, "unterminated");
        pos.makeMove(*m);
        moves.push_back(text);
    }

    // An engine that cannot start or get ready forfeits; the match goes on and restarts it.
    for (chess::Color c : {chess::White, chess::Black}) {
        if (!engines[c]->newGame())
            return finish(winFor(chess::Color(c ^ 1)),
                          std::string(colorName(c)) + " fails to start: " + engines[c]->error(),
                          "abandoned");
    }

    GameClock clock(settings.timeControlFor(chess::White), settings.timeControlFor(chess::Black),
                    settings.timeMarginMs);
    Adjudicator adjudicator(settings.adjudication);

    while (true) {
        const chess::GameStatus status = chess::gameStatus(pos);
        const chess::Color us = pos.sideToMove();
        switch (status) {
        case chess::GameStatus::Ongoing: break;
        case chess::GameStatus::Checkmate:
            return finish(winFor(chess::Color(us ^ 1)),
                          std::string(colorName(chess::Color(us ^ 1))) + " mates", "normal");
        default: return finish(GameOutcome::Draw, chess::toString(status), "normal");
        }
        // K+N+N v K cannot be won by force: no point playing it out.
        if (chess::insufficientMaterial(pos) == chess::MaterialDraw::DrawnByClaim)
            return finish(GameOutcome::Draw, "insufficient mating material", "adjudication");
        if (stop && stop->load())
            return finish(GameOutcome::Unfinished, "match stopped", "unterminated");

        const TimeControl& tc = settings.timeControlFor(us);
        SearchRequest request;
        request.startFen = opening.fen;
        request.timeControl = tc;
        request.moves = moves;
        switch (tc.kind) {
        case TimeControl::Kind::Clock:
            request.useClock = true;
            request.whiteMs = clock.remainingMs(chess::White);
            request.blackMs = clock.remainingMs(chess::Black);
            request.whiteIncMs = clock.incrementMs(chess::White);
            request.blackIncMs = clock.incrementMs(chess::Black);
            request.movesToGo = clock.movesToGo(us);
            request.deadline = std::chrono::milliseconds(clock.deadlineMs(us));
            break;
        case TimeControl::Kind::MoveTime:
            request.moveTimeMs = tc.moveTimeMs;
            request.deadline = std::chrono::milliseconds(tc.moveTimeMs + settings.timeMarginMs);
            break;
        case TimeControl::Kind::Nodes:
            request.nodes = tc.nodes;
            request.deadline = std::chrono::milliseconds(settings.fixedLimitTimeoutMs);
            break;
        case TimeControl::Kind::Depth:
            request.depth = tc.depth;
            request.deadline = std::chrono::milliseconds(settings.fixedLimitTimeoutMs);
            break;
        }

        const SearchResult result = engines[us]->search(request);
        const chess::Color them = chess::Color(us ^ 1);
        if (result.status == SearchStatus::Crashed)
            return finish(winFor(them),
                          std::string(colorName(us)) + " disconnects: " + result.error,
                          "abandoned");
        if (result.status == SearchStatus::Timeout) {
            // Under nodes or depth limits there is no clock to lose on: the engine hung.
            const bool timed =
                tc.kind == TimeControl::Kind::Clock || tc.kind == TimeControl::Kind::MoveTime;
            return finish(winFor(them),
                          std::string(colorName(us)) +
                              (timed ? " loses on time" : " hangs: " + result.error),
                          timed ? "time forfeit" : "abandoned");
        }
        if (tc.kind == TimeControl::Kind::Clock && !clock.consume(us, result.elapsed.count()))
            return finish(winFor(them), std::string(colorName(us)) + " loses on time",
                          "time forfeit");
        if (result.resigned)
            return finish(winFor(them), std::string(colorName(us)) + " resigns", "normal");

        auto move = chess::parseUciMove(pos, result.bestMove);
        if (!move || *move == chess::Move::null())
            return finish(winFor(them),
                          std::string(colorName(us)) + " makes an illegal move: " + result.bestMove,
                          "rules infraction");
        GameMove played;
        played.uci = chess::toUci(*move, pos.isChess960());
        played.scoreCp = result.scoreCp;
        played.scoreMate = result.scoreMate;
        played.depth = result.depth;
        played.timeMs = result.elapsed.count();
        pos.makeMove(*move);
        moves.push_back(played.uci);
        record.moves.push_back(played);

        if (const auto adjudicated = adjudicator.update(us, played, pos.fullmoveNumber())) {
            const char* why = *adjudicated == GameOutcome::Draw ? "Draw by adjudication"
                              : *adjudicated == GameOutcome::WhiteWins
                                  ? "Black resigns (adjudication)"
                                  : "White resigns (adjudication)";
            return finish(*adjudicated, why, "adjudication");
        }
    }
}

chess::PgnGame toPgnGame(const GameRecord& record, const std::string& whiteName,
                         const std::string& blackName, const GameSettings& settings) {
    chess::PgnGame game;
    game.setTag("White", whiteName);
    game.setTag("Black", blackName);
    game.setTag("Result", resultString(record.outcome));
    auto start = chess::parseFen(record.opening.fen);
    if (!start) return game;
    chess::Position pos = *start;
    pos.setChess960(record.opening.chess960);
    game.startFen = chess::toFen(pos);
    game.chess960 = record.opening.chess960;
    // Chess960 games always name their start: the standard array is only one of 960.
    if (game.startFen != chess::Position::kStartFen || game.chess960) {
        game.setTag("FEN", game.startFen);
        game.setTag("SetUp", "1");
    }
    if (game.chess960) game.setTag("Variant", "Chess960");
    const std::string whiteTc = settings.timeControlFor(chess::White).pgnTag();
    const std::string blackTc = settings.timeControlFor(chess::Black).pgnTag();
    if (whiteTc == blackTc) {
        game.setTag("TimeControl", whiteTc);
    } else {
        game.setTag("WhiteTimeControl", whiteTc);
        game.setTag("BlackTimeControl", blackTc);
    }
    game.setTag("Termination", record.termination);
    auto add = [&](const std::string& uci, std::string comment) {
        auto m = chess::parseUciMove(pos, uci);
        if (!m) return false;
        chess::PgnMove pm;
        pm.move = *m;
        pm.comment = std::move(comment);
        game.moves.push_back(std::move(pm));
        pos.makeMove(*m);
        return true;
    };
    for (const auto& uci : record.opening.moves)
        if (!add(uci, "book")) return game;
    for (const auto& m : record.moves)
        if (!add(m.uci, formatComment(m))) return game;
    if (!game.moves.empty())
        game.moves.back().comment +=
            (game.moves.back().comment.empty() ? "" : ", ") + record.reason;
    else
        game.preComment = record.reason;
    game.result = resultString(record.outcome);
    return game;
}

} // namespace axon::match
