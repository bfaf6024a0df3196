// SPDX-License-Identifier: GPL-3.0-or-later
// UCI command loop. The search arrives with its own issue; until then `go` answers with an
// error and a null best move, while position handling, `d` and `go perft` are complete.
#include "uci/uci.h"

#include <iostream>
#include <sstream>
#include <string>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/uci_move.h"

namespace axon::uci {

using namespace chess;

namespace {

class Session {
  public:
    bool handle(const std::string& line);

  private:
    void position(std::istringstream& in);
    void go(std::istringstream& in);
    void display() const;

    Position m_pos = startPosition();
    bool m_chess960 = false;
};

void Session::position(std::istringstream& in) {
    std::string token, fen;
    in >> token;
    if (token == "startpos") {
        fen = Position::kStartFen;
        in >> token;
    } else if (token == "fen") {
        while (in >> token && token != "moves") fen += token + " ";
    } else {
        std::cout << "info string error: expected 'position startpos' or 'position fen ...'" << std::endl;
        return;
    }
    auto parsed = parseFen(fen);
    if (!parsed) {
        std::cout << "info string error: " << parsed.error() << std::endl;
        return;
    }
    Position pos = std::move(*parsed);
    if (token == "moves") {
        while (in >> token) {
            auto move = parseUciMove(pos, token);
            if (!move) {
                std::cout << "info string error: " << move.error() << std::endl;
                return;
            }
            pos.makeMove(*move);
        }
    }
    m_pos = std::move(pos);
}

void Session::go(std::istringstream& in) {
    std::string token;
    in >> token;
    if (token == "perft") {
        int depth = 0;
        if (!(in >> depth) || depth < 1 || depth > 20) {
            std::cout << "info string error: go perft needs a depth from 1 to 20" << std::endl;
            return;
        }
        std::uint64_t total = 0;
        for (const PerftDivide& d : perftDivide(m_pos, depth)) {
            std::cout << toUci(d.move, m_chess960) << ": " << d.nodes << "\n";
            total += d.nodes;
        }
        std::cout << "\nNodes searched: " << total << std::endl;
        return;
    }
    std::cout << "info string error: search is not implemented yet" << std::endl;
    std::cout << "bestmove 0000" << std::endl;
}

void Session::display() const {
    std::cout << "\n +---+---+---+---+---+---+---+---+\n";
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            const Piece p = m_pos.pieceOn(makeSquare(file, rank));
            std::cout << " | " << (p == NoPiece ? ' ' : "PNBRQKpnbrqk"[p]);
        }
        std::cout << " | " << rank + 1 << "\n +---+---+---+---+---+---+---+---+\n";
    }
    std::cout << "   a   b   c   d   e   f   g   h\n\nFen: " << toFen(m_pos) << "\nKey: " << std::hex
              << m_pos.key() << std::dec << "\nCheckers:";
    for (Bitboard b = m_pos.checkers(); b;) std::cout << ' ' << squareName(popLsb(b));
    std::cout << std::endl;
}

bool Session::handle(const std::string& line) {
    std::istringstream in(line);
    std::string cmd;
    if (!(in >> cmd)) return true;
    if (cmd == "quit") return false;
    if (cmd == "uci") {
        std::cout << "id name Axon\nid author the Axon developers\n"
                  << "option name UCI_Chess960 type check default false\nuciok" << std::endl;
    } else if (cmd == "isready") {
        std::cout << "readyok" << std::endl;
    } else if (cmd == "ucinewgame") {
        m_pos = startPosition();
    } else if (cmd == "setoption") {
        std::string token, name, value;
        in >> token;
        while (in >> token && token != "value") name += (name.empty() ? "" : " ") + token;
        in >> value;
        if (name == "UCI_Chess960")
            m_chess960 = value == "true";
        else
            std::cout << "info string error: unknown option '" << name << "'" << std::endl;
    } else if (cmd == "position") {
        position(in);
    } else if (cmd == "go") {
        go(in);
    } else if (cmd == "d") {
        display();
    } else if (cmd == "stop" || cmd == "ponderhit") {
        // Nothing runs in the background yet.
    } else {
        std::cout << "info string error: unknown command '" << cmd << "'" << std::endl;
    }
    return true;
}

} // namespace

int runUciLoop() {
    Session session;
    std::string line;
    while (std::getline(std::cin, line))
        if (!session.handle(line)) break;
    return 0;
}

} // namespace axon::uci
