// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess PGN to training records: game filters (variant, result, ratings, time control), the
// replay, and the position filters.
#include "data/lichess_pgn.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "chess/pgn_reader.h"

namespace axon::data {

namespace {

using namespace chess;
using util::makeError;

// Lichess's speed classes by estimated game duration (initial + 40 x increment seconds): each
// class is below its bound (lila's Speed). Anything longer is classical.
struct SpeedBound {
    const char* name;
    int below;
};
constexpr SpeedBound kSpeeds[] = {
    {"ultrabullet", 30}, {"bullet", 180}, {"blitz", 480}, {"rapid", 1500}};
constexpr const char* kClassical = "classical";
constexpr const char* kCorrespondence = "correspondence";
constexpr int kEstimatedMoves = 40;

std::optional<int> parseInt(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Initial seconds and increment of "300+8"; nullopt for "-" or anything unreadable.
std::optional<std::pair<int, int>> parseClock(std::string_view tag) {
    const auto plus = tag.find('+');
    if (plus == std::string_view::npos) return std::nullopt;
    const auto base = parseInt(tag.substr(0, plus));
    const auto increment = parseInt(tag.substr(plus + 1));
    if (!base || !increment || *base < 0 || *increment < 0) return std::nullopt;
    return std::pair(*base, *increment);
}

bool knownClass(std::string_view name) {
    if (name == kClassical || name == kCorrespondence) return true;
    return std::any_of(std::begin(kSpeeds), std::end(kSpeeds),
                       [&](const SpeedBound& s) { return name == s.name; });
}

// The game's result for White (1, 0.5, 0), or nullopt for "*".
std::optional<double> whiteScore(const std::string& result) {
    if (result == "1-0") return 1.0;
    if (result == "0-1") return 0.0;
    if (result == "1/2-1/2") return 0.5;
    return std::nullopt;
}

// Why the game is left out, or nullptr.
const char* gameSkipReason(const PgnGame& game, const LichessPgnOptions& o) {
    if (game.chess960) return "variant";
    if (!whiteScore(game.result)) return "no result";
    if (o.minElo || o.maxElo) {
        for (const char* tag : {"WhiteElo", "BlackElo"}) {
            const auto elo = parseInt(game.tag(tag));
            if (!elo || (o.minElo && *elo < o.minElo) || (o.maxElo && *elo > o.maxElo))
                return "elo";
        }
    }
    const TimeControlFilter& tc = o.timeControl;
    if (tc.active()) {
        const std::string tag = game.tag("TimeControl");
        if (!tc.classes.empty()) {
            const auto cls = timeControlClass(tag);
            if (!cls || std::find(tc.classes.begin(), tc.classes.end(), *cls) == tc.classes.end())
                return "time control";
        }
        if (tc.minBaseSeconds >= 0) {
            const auto clock = parseClock(tag);
            if (!clock || clock->first < tc.minBaseSeconds) return "time control";
        }
    }
    return nullptr;
}

} // namespace

util::Result<TimeControlFilter> parseTimeControlFilter(std::string_view text) {
    TimeControlFilter filter;
    if (const auto seconds = parseInt(text)) {
        if (*seconds < 0) return makeError("--time-control: negative seconds");
        filter.minBaseSeconds = *seconds;
        return filter;
    }
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string name(text.substr(0, comma));
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (!knownClass(name))
            return makeError("--time-control: '" + name +
                             "' is not a number of seconds or one of ultrabullet, bullet, blitz, "
                             "rapid, classical, correspondence");
        filter.classes.push_back(name);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    if (filter.classes.empty()) return makeError("--time-control: empty");
    return filter;
}

std::optional<std::string> timeControlClass(std::string_view tag) {
    if (tag == "-") return std::string(kCorrespondence);
    const auto clock = parseClock(tag);
    if (!clock) return std::nullopt;
    const int estimate = clock->first + kEstimatedMoves * clock->second;
    for (const SpeedBound& s : kSpeeds)
        if (estimate < s.below) return std::string(s.name);
    return std::string(kClassical);
}

std::optional<int> evalScore(const PgnMove& move, Color sideToMove) {
    int white;
    if (move.evalMate) {
        const int n = *move.evalMate;
        // "#0" would be a mate already on the board, which Lichess never annotates; it is read
        // as the side to move being mated.
        if (n == 0) return -kRecordScoreLimit;
        white = n > 0 ? kRecordScoreLimit - std::min(n, kRecordScoreLimit)
                      : -(kRecordScoreLimit - std::min(-n, kRecordScoreLimit));
    } else if (move.evalCp) {
        white = std::clamp(*move.evalCp, -kRecordScoreLimit, kRecordScoreLimit);
    } else {
        return std::nullopt;
    }
    return sideToMove == White ? white : -white;
}

NextPgnGame nextGameToConvert(PgnReader& reader, PgnGame& game, ConvertOutput& out) {
    auto next = reader.next(game);
    if (next && !*next) return NextPgnGame::End;
    out.item();
    if (next) return NextPgnGame::Ready;
    if (reader.lastError() == PgnError::UnsupportedVariant)
        out.skip("variant");
    else
        out.malformed(next.error());
    return NextPgnGame::Skipped;
}

std::optional<Position> recordableStart(const PgnGame& game, ConvertOutput& out) {
    auto start = game.startPosition();
    if (!start) {
        out.malformed("game " + std::to_string(game.number) + ": " + start.error());
        return std::nullopt;
    }
    // A FEN setup can hold more pieces than a record has room for.
    if (!fitsRecord(*start)) {
        out.skip("more than 32 pieces");
        return std::nullopt;
    }
    return std::move(*start);
}

std::string convertLichessPgn(std::istream& in, const LichessPgnOptions& options,
                              ConvertOutput& out) {
    PgnReader reader(in);
    PgnGame game;
    for (;;) {
        const NextPgnGame next = nextGameToConvert(reader, game, out);
        if (next == NextPgnGame::End) break;
        if (next == NextPgnGame::Skipped) continue;
        if (const char* why = gameSkipReason(game, options)) {
            out.skip(why);
            continue;
        }
        auto start = recordableStart(game, out);
        if (!start) continue;
        Position pos = std::move(*start);
        const double result = *whiteScore(game.result);
        const int startPly = pos.gamePly();
        bool anyEval = false;
        for (std::size_t i = 0; i < game.moves.size(); ++i) {
            const PgnMove& m = game.moves[i];
            if (m.isNull())
                pos.makeNullMove();
            else
                pos.makeMove(m.move);
            const auto score = evalScore(m, pos.sideToMove());
            if (!score) continue;
            anyEval = true;
            if (m.evalMate && options.mates == MateScores::Skip) {
                out.skip("mate score");
                continue;
            }
            if (pos.gamePly() - startPly <= options.skipPlies) {
                out.skip("early ply");
                continue;
            }
            if (options.skipCheck && pos.inCheck()) {
                out.skip("in check");
                continue;
            }
            if (options.skipCaptures && i + 1 < game.moves.size() && !game.moves[i + 1].isNull() &&
                pos.isCapture(game.moves[i + 1].move)) {
                out.skip("next move captures");
                continue;
            }
            const TrainingRecord r = makeRecord(pos, *score, resultFor(pos.sideToMove(), result),
                                                Move::none(), pos.gamePly());
            if (auto e = out.write(r); !e.empty()) return e;
        }
        if (!anyEval) out.note("games without evals");
    }
    return {};
}

} // namespace axon::data
