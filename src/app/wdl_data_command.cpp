// SPDX-License-Identifier: GPL-3.0-or-later
// WDL training samples from PGN eval comments.
#include "app/wdl_data_command.h"

#include <charconv>
#include <fstream>
#include <iostream>
#include <optional>

#include "chess/pgn_reader.h"
#include "search/wdl.h"

namespace axon::app {

namespace {

// The centipawns of an `axon match` comment ("+0.35/12 0.123s"); nullopt for book moves,
// mates ("+M3/...") and comments without a score.
std::optional<int> commentCentipawns(const std::string& comment) {
    const auto slash = comment.find('/');
    if (slash == std::string::npos || comment.empty() || (comment[0] != '+' && comment[0] != '-'))
        return std::nullopt;
    double pawns = 0;
    const char* begin = comment.data() + 1;
    const auto [end, ec] = std::from_chars(begin, comment.data() + slash, pawns);
    if (ec != std::errc() || end != comment.data() + slash) return std::nullopt;
    const double cp = pawns * 100.0 * (comment[0] == '-' ? -1 : 1);
    return int(cp >= 0 ? cp + 0.5 : cp - 0.5);
}

} // namespace

int runWdlData(const std::string& pgnFile) {
    std::ifstream in(pgnFile);
    if (!in) {
        std::cerr << "wdl-data: cannot read " << pgnFile << "\n";
        return 1;
    }
    chess::PgnReader reader(in);
    chess::PgnGame game;
    long long samples = 0;
    while (true) {
        auto next = reader.next(game);
        if (!next) {
            std::cerr << "wdl-data: skipped " << next.error() << "\n";
            continue;
        }
        if (!*next) break;
        double whiteResult = 0;
        if (game.result == "1-0")
            whiteResult = 1;
        else if (game.result == "1/2-1/2")
            whiteResult = 0.5;
        else if (game.result != "0-1")
            continue;
        auto start = game.startPosition();
        if (!start) continue;
        chess::Position pos = std::move(*start);
        for (const chess::PgnMove& m : game.moves) {
            if (m.isNull()) break;
            if (const auto cp = commentCentipawns(m.comment)) {
                const double result =
                    pos.sideToMove() == chess::White ? whiteResult : 1 - whiteResult;
                std::cout << search::wdlMaterial(pos) << ' ' << *cp << ' ' << result << '\n';
                ++samples;
            }
            pos.makeMove(m.move);
        }
    }
    std::cerr << "wdl-data: " << samples << " samples from " << reader.gamesSeen() << " games\n";
    return 0;
}

} // namespace axon::app
