// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI protocol: command parsing, option handling and search output formatting over the
// Engine facade. The search runs in the background where threads exist, so `stop`, `isready`
// and `quit` are answered while it thinks.
#include "uci/session.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/perft.h"
#include "chess/uci_move.h"
#include "engine/bench.h"
#include "engine/build_info.h"
#include "engine/genfens.h"
#include "search/score.h"

namespace axon::uci {

using namespace chess;

namespace {

std::string formatScore(int score, search::Bound bound) {
    std::string text =
        search::isMateScore(score) ? "mate " + std::to_string(search::mateDistance(score))
        : search::isTbScore(score) ? "cp " + std::to_string(search::tbDisplayScore(score))
                                   : "cp " + std::to_string(score);
    if (bound == search::Bound::Lower) text += " lowerbound";
    if (bound == search::Bound::Upper) text += " upperbound";
    return text;
}

// `eval pieces`: one machine-readable line, White's view (docs/eval-pieces.md).
std::string formatPieces(const engine::PieceContributions& c) {
    std::string line = "info string pieces base " + std::to_string(c.base);
    for (const engine::PieceContribution& p : c.pieces) {
        line += ' ';
        line += squareName(p.square);
        line += ' ';
        line += pieceChar(p.piece);
        line += ' ';
        line += std::to_string(p.cp);
    }
    return line;
}

} // namespace

Session::Session(Sink sink, engine::EngineLimits limits)
    : m_sink(std::move(sink)), m_engine(limits) {}

bool Session::waitUntilIdle(const char* command) {
    if (m_engine.searching() && m_unboundedSearch) {
        sendError(std::string(command) +
                  " during an infinite or pondering search: send stop first");
        return false;
    }
    m_engine.wait();
    return true;
}

void Session::finish() {
    if (m_unboundedSearch) m_engine.stop();
    m_engine.wait();
}

void Session::position(std::istringstream& in) {
    std::string token, fen;
    std::vector<std::string> moves;
    if (!(in >> token)) return sendError("position needs 'startpos' or 'fen <FEN>'");
    if (token == "startpos") {
        in >> token;
    } else if (token == "fen") {
        while (in >> token && token != "moves") fen += token + " ";
        if (fen.empty()) return sendError("position fen needs a FEN");
    } else {
        return sendError("position needs 'startpos' or 'fen <FEN>', found '" + token + "'");
    }
    if (token == "moves")
        while (in >> token) moves.push_back(token);
    if (auto error = m_engine.setPosition(fen, moves)) sendError(*error + " (position unchanged)");
}

void Session::go(std::istringstream& in) {
    if (!waitUntilIdle("go")) return;
    search::SearchLimits limits;
    std::string token;
    auto readNumber = [&](const char* name, long long min, long long max, long long& out) {
        long long value = 0;
        if (!(in >> value) || value < min || value > max) {
            sendError(std::string("go ") + name + ": expected a number from " +
                      std::to_string(min) + " to " + std::to_string(max));
            return false;
        }
        out = value;
        return true;
    };
    constexpr long long kMaxTime = 1LL << 40;
    while (in >> token) {
        long long v = 0;
        if (token == "wtime" || token == "btime") {
            // Some GUIs send a negative clock when a player is already out of time.
            if (!(in >> v)) return sendError("go " + token + ": expected a number");
            limits.timeMs[token == "wtime" ? White : Black] = std::max(1LL, std::min(v, kMaxTime));
        } else if (token == "winc" || token == "binc") {
            if (!readNumber(token.c_str(), -kMaxTime, kMaxTime, v)) return;
            limits.incMs[token == "winc" ? White : Black] = std::max(0LL, v);
        } else if (token == "movestogo") {
            if (!readNumber("movestogo", 0, 10000, v)) return;
            limits.movesToGo = int(v);
        } else if (token == "depth") {
            if (!readNumber("depth", 1, kMaxPly - 1, v)) return;
            limits.depth = int(v);
        } else if (token == "nodes") {
            if (!readNumber("nodes", 1, 1LL << 50, v)) return;
            limits.nodes = std::uint64_t(v);
        } else if (token == "mate") {
            if (!readNumber("mate", 1, kMaxPly / 2, v)) return;
            limits.mate = int(v);
        } else if (token == "movetime") {
            if (!readNumber("movetime", 1, kMaxTime, v)) return;
            limits.moveTimeMs = v;
        } else if (token == "infinite") {
            limits.infinite = true;
        } else if (token == "ponder") {
            limits.ponder = true;
        } else if (token == "searchmoves") {
            while (in >> token) {
                auto m = parseUciMove(m_engine.position(), token);
                if (!m) return sendError("searchmoves: " + m.error());
                limits.searchMoves.push_back(*m);
            }
        } else if (token == "perft") {
            if (!readNumber("perft", 1, 20, v)) return;
            Position pos = m_engine.position();
            std::uint64_t total = 0;
            std::ostringstream out;
            for (const PerftDivide& d : perftDivide(pos, int(v))) {
                out << m_engine.moveToString(d.move) << ": " << d.nodes << "\n";
                total += d.nodes;
            }
            out << "\nNodes searched: " << total << "\n";
            return send(out.str());
        } else {
            return sendError("go: unknown parameter '" + token + "'");
        }
    }

    engine::Engine::Callbacks callbacks;
    callbacks.onInfo = [this](const search::SearchInfo& info) {
        std::ostringstream out;
        const std::uint64_t nps = search::nodesPerSecond(info.nodes, info.timeMs);
        out << "info depth " << info.depth << " seldepth " << info.selDepth << " multipv "
            << info.multiPv << " score " << formatScore(info.score, info.bound);
        if (m_engine.showWdl())
            out << " wdl " << info.wdl.win << ' ' << info.wdl.draw << ' ' << info.wdl.loss;
        out << " nodes " << info.nodes << " nps " << nps << " hashfull " << info.hashfull;
        if (info.tbHits) out << " tbhits " << info.tbHits;
        out << " time " << info.timeMs << " pv";
        for (const Move m : info.pv) out << ' ' << m_engine.moveToString(m);
        send(out.str());
    };
    callbacks.onCurrMove = [this](Move m, int number, int depth) {
        send("info depth " + std::to_string(depth) + " currmove " + m_engine.moveToString(m) +
             " currmovenumber " + std::to_string(number));
    };
    callbacks.onProgress = [this](const search::SearchProgress& p) {
        std::ostringstream out;
        out << "info depth " << p.depth << " seldepth " << p.selDepth << " nodes " << p.nodes
            << " nps " << search::nodesPerSecond(p.nodes, p.timeMs) << " hashfull " << p.hashfull;
        if (p.tbHits) out << " tbhits " << p.tbHits;
        out << " time " << p.timeMs;
        if (p.currMove)
            out << " currmove " << m_engine.moveToString(p.currMove) << " currmovenumber "
                << p.currMoveNumber;
        send(out.str());
    };
    callbacks.onBestMove = [this](Move best, Move ponder) {
        for (const std::string& error : m_engine.takeTablebaseErrors())
            sendError("tablebase " + error);
        std::string line = "bestmove " + m_engine.moveToString(best);
        if (ponder) line += " ponder " + m_engine.moveToString(ponder);
        send(line);
    };
    m_unboundedSearch = limits.infinite || limits.ponder;
    m_engine.go(limits, std::move(callbacks));
}

void Session::setoption(std::istringstream& in) {
    std::string token, name, value;
    in >> token;
    if (token != "name") return sendError("setoption needs 'name <name> [value <value>]'");
    while (in >> token && token != "value") name += (name.empty() ? "" : " ") + token;
    while (in >> token) value += (value.empty() ? "" : " ") + token;
    if (!waitUntilIdle("setoption")) return;
    if (auto error = m_engine.options().set(name, value)) return sendError(*error);
    const engine::Options::Option* option = m_engine.options().find(name);
    if (option && option->name == "SyzygyPath") send("info string " + m_engine.tablebaseSummary());
}

void Session::display() {
    const Position& pos = m_engine.position();
    std::ostringstream out;
    out << "\n +---+---+---+---+---+---+---+---+\n";
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            const Piece p = pos.pieceOn(makeSquare(file, rank));
            out << " | " << (p == NoPiece ? ' ' : "PNBRQKpnbrqk"[p]);
        }
        out << " | " << rank + 1 << "\n +---+---+---+---+---+---+---+---+\n";
    }
    out << "   a   b   c   d   e   f   g   h\n\nFen: " << toFen(pos) << "\nKey: " << std::hex
        << pos.key() << std::dec << "\nCheckers:";
    for (Bitboard b = pos.checkers(); b;) out << ' ' << squareName(popLsb(b));
    send(out.str());
}

void Session::genfens(const std::string& arguments) {
    auto request = engine::parseGenfensArguments(arguments);
    if (!request) return sendError("genfens: " + request.error());
    if (!waitUntilIdle("genfens")) return;
    // OpenBench reads every line starting "info string genfens " as an opening, so errors go out
    // as "info string error: genfens: ...".
    auto done =
        engine::generateFens(*request, m_engine.evalSource(), [this](const std::string& fen) {
            send("info string genfens " + fen);
        });
    if (!done) sendError("genfens: " + done.error());
}

bool Session::handle(const std::string& line) {
    std::istringstream in(line);
    std::string cmd;
    if (!(in >> cmd)) return true;
    if (cmd == "quit") {
        m_engine.stop();
        m_engine.wait();
        return false;
    }
    if (cmd == "uci") {
        send("id name Axon " + engine::version() + "\nid author the Axon developers\n" +
             m_engine.options().uciListing() + "uciok");
    } else if (cmd == "isready") {
        send("readyok");
    } else if (cmd == "ucinewgame") {
        if (waitUntilIdle("ucinewgame")) m_engine.newGame();
    } else if (cmd == "setoption") {
        setoption(in);
    } else if (cmd == "position") {
        // The running search owns a copy of its root: the next one may be set now.
        position(in);
    } else if (cmd == "go") {
        go(in);
    } else if (cmd == "stop") {
        m_engine.stop();
        m_engine.wait();
    } else if (cmd == "ponderhit") {
        m_engine.ponderhit();
    } else if (cmd == "d") {
        display();
    } else if (cmd == "eval") {
        // Reads only the position and the evaluation: answered during a search too.
        if (std::string what; !(in >> what))
            send(m_engine.evalBreakdown());
        else if (what == "pieces")
            send(formatPieces(m_engine.pieceContributions()));
        else
            sendError("eval: unknown argument '" + what + "' (eval, or eval pieces)");
    } else if (cmd == "bench") {
        int depth = engine::kDefaultBenchDepth;
        if (std::string d; in >> d) {
            const auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), depth);
            if (ec != std::errc() || end != d.data() + d.size() || depth < 1 || depth > 64)
                return sendError("bench: expected a depth from 1 to 64, found '" + d + "'"), true;
        }
        if (!waitUntilIdle("bench")) return true;
        std::ostringstream out;
        engine::runBench(depth, out, m_engine.evalSource());
        send(out.str());
    } else if (cmd == "genfens") {
        genfens(line.substr(line.find("genfens") + 7));
    } else if (cmd == "perft") {
        std::istringstream perftArgs("perft " + line.substr(line.find("perft") + 5));
        go(perftArgs);
    } else {
        sendError("unknown command '" + cmd + "'");
    }
    return true;
}

} // namespace axon::uci
