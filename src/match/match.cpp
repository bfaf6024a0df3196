// SPDX-License-Identifier: GPL-3.0-or-later
// The match runner: worker threads each own one instance of both engines and play whole game
// pairs, so the pentanomial count of a pair never mixes engine instances or openings.
#include "match/match.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <memory>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

#include "chess/pgn_writer.h"
#include "match/json_text.h"
#include "match/uci_engine.h"

namespace axon::match {

namespace {

std::string todayPgnDate() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    return buf;
}

std::string hostName() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || !buf[0]) return "?";
    return buf;
}

// The first engine's points for a game it played with the given colour.
double firstEngineScore(GameOutcome outcome, bool firstIsWhite) {
    if (outcome == GameOutcome::Draw) return 0.5;
    const bool whiteWon = outcome == GameOutcome::WhiteWins;
    return whiteWon == firstIsWhite ? 1.0 : 0.0;
}

std::string describeLimits(const MatchOptions& options) {
    const auto& a = options.engines[0].timeControl;
    const auto& b = options.engines[1].timeControl;
    if (!a && !b) return options.game.timeControl.describe();
    return (a ? a->describe() : options.game.timeControl.describe()) + " vs " +
           (b ? b->describe() : options.game.timeControl.describe());
}

// Shared by the workers; everything behind m_mutex.
class MatchState {
  public:
    MatchState(const MatchOptions& options, MatchSummary& summary, std::ostream& out)
        : m_options(options), m_summary(summary), m_out(out) {
        if (!options.pgnFile.empty()) m_pgn.open(options.pgnFile, std::ios::app);
    }

    bool pgnOpen() const { return m_options.pgnFile.empty() || m_pgn.is_open(); }

    void recordGame(const GameRecord& record, const GameSettings& settings, int round,
                    bool firstIsWhite) {
        const std::lock_guard lock(m_mutex);
        const double s = firstEngineScore(record.outcome, firstIsWhite);
        m_summary.score.addGame(s);
        ++m_summary.gamesPlayed;
        const std::string& white = m_summary.names[firstIsWhite ? 0 : 1];
        const std::string& black = m_summary.names[firstIsWhite ? 1 : 0];
        if (m_pgn.is_open()) {
            chess::PgnGame game = toPgnGame(record, white, black, settings);
            game.tags.insert(game.tags.begin(), {{"Event", m_options.event},
                                                 {"Site", m_site},
                                                 {"Date", m_date},
                                                 {"Round", std::to_string(round)}});
            auto text = chess::toPgn(game);
            if (text) m_pgn << *text << std::flush;
        }
        const MatchScore& sc = m_summary.score;
        m_out << "Game " << round << ": " << white << " vs " << black << " "
              << resultString(record.outcome) << " (" << record.reason << ")  | "
              << m_summary.names[0] << " vs " << m_summary.names[1] << " W-L-D: " << sc.wins << "-"
              << sc.losses << "-" << sc.draws << " [" << fixedDecimals(sc.scoreRatio(), 3) << "] "
              << m_summary.gamesPlayed << "/" << 2 * m_options.pairs;
        if (m_summary.sprt) m_out << "  LLR " << fixedDecimals(m_summary.sprt->llr, 2);
        m_out << std::endl;
    }

    void note(const std::string& line) {
        const std::lock_guard lock(m_mutex);
        m_out << line << std::endl;
    }

    // Returns true when the match should stop (the SPRT has decided).
    bool recordPair(double first, double second) {
        const std::lock_guard lock(m_mutex);
        m_summary.score.addPentanomial(first, second);
        if (!m_options.sprt) return false;
        m_summary.sprt = computeSprt(m_summary.score, *m_options.sprt);
        if (m_summary.sprt->state == SprtState::Continue) return false;
        m_summary.stoppedBySprt = true;
        return true;
    }

  private:
    const MatchOptions& m_options;
    MatchSummary& m_summary;
    std::ostream& m_out;
    std::mutex m_mutex;
    std::ofstream m_pgn;
    std::string m_date = todayPgnDate();
    std::string m_site = hostName();
};

} // namespace

util::Result<MatchSummary> runMatch(const MatchOptions& options, std::ostream& out) {
    OpeningSequence openings;
    if (!options.openingsFile.empty()) {
        auto book = loadOpenings(options.openingsFile);
        if (!book) return util::makeError(book.error());
        openings = OpeningSequence(std::move(*book), options.openingOrder, options.seed);
    }

    MatchSummary summary;
    // Each engine must start once before any game, so a typo in a command line is an error
    // rather than a match of forfeits; this also learns the names engines give themselves.
    for (int i = 0; i < 2; ++i) {
        UciEngine probe(options.engines[i]);
        if (!probe.ensureStarted()) return util::makeError("cannot start engine: " + probe.error());
        summary.names[i] = probe.name();
    }
    if (summary.names[0] == summary.names[1]) {
        summary.names[0] += " (1)";
        summary.names[1] += " (2)";
    }
    EngineConfig configs[2] = {options.engines[0], options.engines[1]};
    for (int i = 0; i < 2; ++i) configs[i].name = summary.names[i];

    MatchState state(options, summary, out);
    if (!state.pgnOpen()) return util::makeError("cannot open " + options.pgnFile);
    out << "Match " << summary.names[0] << " vs " << summary.names[1] << ": "
        << 2 * options.pairs << " games, " << describeLimits(options) << ", "
        << openings.size() << " openings, concurrency " << options.concurrency << std::endl;

    std::atomic<int> nextPair{0};
    std::atomic<bool> stop{false};
    auto worker = [&] {
        UciEngine first(configs[0]);
        UciEngine second(configs[1]);
        while (!stop.load()) {
            const int pair = nextPair.fetch_add(1);
            if (pair >= options.pairs) break;
            const Opening& opening = openings.at(std::size_t(pair));
            double scores[2] = {0, 0};
            bool complete = true;
            for (int g = 0; g < 2; ++g) {
                const bool firstIsWhite = g == 0;
                Engine& white = firstIsWhite ? static_cast<Engine&>(first) : second;
                Engine& black = firstIsWhite ? static_cast<Engine&>(second) : first;
                GameSettings settings = options.game;
                settings.sideTimeControl[chess::White] = configs[firstIsWhite ? 0 : 1].timeControl;
                settings.sideTimeControl[chess::Black] = configs[firstIsWhite ? 1 : 0].timeControl;
                const GameRecord record = playGame(white, black, opening, settings, &stop);
                if (record.outcome == GameOutcome::Unfinished) {
                    if (!stop.load())
                        state.note("Game " + std::to_string(2 * pair + g + 1) +
                                   " not played: " + record.reason);
                    complete = false;
                    break;
                }
                scores[g] = firstEngineScore(record.outcome, firstIsWhite);
                state.recordGame(record, settings, 2 * pair + g + 1, firstIsWhite);
            }
            if (complete && state.recordPair(scores[0], scores[1])) stop = true;
        }
    };
    std::vector<std::thread> threads;
    const int workers = std::max(1, std::min(options.concurrency, options.pairs));
    for (int i = 0; i < workers; ++i) threads.emplace_back(worker);
    for (auto& t : threads) t.join();

    summary.elo = estimateElo(summary.score);
    if (options.sprt) summary.sprt = computeSprt(summary.score, *options.sprt);
    out << formatSummary(summary, options);
    if (!options.jsonFile.empty()) {
        std::ofstream json(options.jsonFile);
        json << summaryJson(summary, options);
        if (!json) return util::makeError("cannot write " + options.jsonFile);
    }
    return summary;
}

std::string formatSummary(const MatchSummary& s, const MatchOptions& options) {
    const MatchScore& sc = s.score;
    std::ostringstream o;
    o << "\nResults of " << s.names[0] << " vs " << s.names[1] << " ("
      << describeLimits(options) << "):\n";
    o << "  Games: " << sc.games() << "  W: " << sc.wins << "  L: " << sc.losses
      << "  D: " << sc.draws << "  Points: " << fixedDecimals(double(sc.wins) + 0.5 * double(sc.draws), 1)
      << " (" << fixedDecimals(100.0 * sc.scoreRatio(), 1) << "%)\n";
    o << "  Pentanomial [LL, LD, DD+WL, WD, WW]: [" << sc.pentanomial[0] << ", " << sc.pentanomial[1]
      << ", " << sc.pentanomial[2] << ", " << sc.pentanomial[3] << ", " << sc.pentanomial[4] << "]\n";
    o << "  Elo: " << fixedDecimals(s.elo.elo, 1) << " +/- " << fixedDecimals(s.elo.error95, 1)
      << " (95%)  nElo: " << fixedDecimals(s.elo.nElo, 1) << " +/- " << fixedDecimals(s.elo.nEloError95, 1)
      << "  LOS: " << fixedDecimals(100.0 * s.elo.los, 1) << "%  Draw ratio: "
      << fixedDecimals(100.0 * sc.drawRatio(), 1) << "%\n";
    if (s.sprt && options.sprt) {
        o << "  SPRT (normalised Elo) [" << fixedDecimals(options.sprt->elo0, 2) << ", "
          << fixedDecimals(options.sprt->elo1, 2) << "], alpha " << options.sprt->alpha << ", beta "
          << options.sprt->beta << ": LLR " << fixedDecimals(s.sprt->llr, 2) << " ["
          << fixedDecimals(s.sprt->lowerBound, 2) << ", " << fixedDecimals(s.sprt->upperBound, 2) << "] "
          << toString(s.sprt->state) << (s.stoppedBySprt ? " (match stopped early)" : "") << "\n";
    }
    return o.str();
}

std::string summaryJson(const MatchSummary& s, const MatchOptions& options) {
    const MatchScore& sc = s.score;
    std::ostringstream o;
    o << "{\n";
    o << "  \"engines\": [" << jsonString(s.names[0]) << ", " << jsonString(s.names[1]) << "],\n";
    o << "  \"time_control\": " << jsonString(describeLimits(options)) << ",\n";
    o << "  \"games\": " << sc.games() << ",\n";
    o << "  \"wins\": " << sc.wins << ",\n  \"losses\": " << sc.losses << ",\n  \"draws\": " << sc.draws << ",\n";
    o << "  \"pentanomial\": [" << sc.pentanomial[0] << ", " << sc.pentanomial[1] << ", "
      << sc.pentanomial[2] << ", " << sc.pentanomial[3] << ", " << sc.pentanomial[4] << "],\n";
    o << "  \"score\": " << fixedDecimals(sc.scoreRatio(), 4) << ",\n";
    o << "  \"elo\": " << fixedDecimals(s.elo.elo, 2) << ",\n  \"elo_error95\": " << fixedDecimals(s.elo.error95, 2) << ",\n";
    o << "  \"nelo\": " << fixedDecimals(s.elo.nElo, 2) << ",\n  \"nelo_error95\": " << fixedDecimals(s.elo.nEloError95, 2) << ",\n";
    o << "  \"los\": " << fixedDecimals(s.elo.los, 4) << ",\n  \"draw_ratio\": " << fixedDecimals(sc.drawRatio(), 4);
    if (s.sprt && options.sprt) {
        o << ",\n  \"sprt\": {\"elo_model\": \"normalized\", \"elo0\": " << options.sprt->elo0
          << ", \"elo1\": " << options.sprt->elo1 << ", \"alpha\": " << options.sprt->alpha
          << ", \"beta\": " << options.sprt->beta << ", \"llr\": " << fixedDecimals(s.sprt->llr, 4)
          << ", \"lower_bound\": " << fixedDecimals(s.sprt->lowerBound, 4)
          << ", \"upper_bound\": " << fixedDecimals(s.sprt->upperBound, 4) << ", \"state\": "
          << jsonString(toString(s.sprt->state)) << ", \"stopped_early\": "
          << (s.stoppedBySprt ? "true" : "false") << "}";
    }
    o << "\n}\n";
    return o.str();
}

} // namespace axon::match
