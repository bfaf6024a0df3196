// SPDX-License-Identifier: GPL-3.0-or-later
// The match runner: worker threads each own one instance of every engine and play whole game
// pairs, so the pentanomial count of a pair never mixes engine instances or openings. A
// tournament is a list of pairings whose game pairs are interleaved round by round.
#include "match/match.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

#include "chess/pgn_writer.h"
#include "match/engine_factory.h"
#include "match/report_format.h"
#include "util/parallel.h"

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
    const TimeControl& common = options.game.timeControl;
    bool own = false;
    for (const auto& e : options.engines) own = own || e.timeControl;
    if (!own) return common.describe();
    std::string text;
    for (const auto& e : options.engines)
        text += (text.empty() ? "" : " vs ") +
                (e.timeControl ? e.timeControl->describe() : common.describe());
    return text;
}

const TimeControl& limitOf(const MatchOptions& options, int engine) {
    const auto& own = options.engines[std::size_t(engine)].timeControl;
    return own ? *own : options.game.timeControl;
}

const char* tournamentName(TournamentKind kind) {
    return kind == TournamentKind::Gauntlet ? "gauntlet" : "roundrobin";
}

// Points as "5.5/10".
std::string pointsText(const MatchScore& s) {
    return fixedDecimals(double(s.wins) + 0.5 * double(s.draws), 1) + "/" +
           std::to_string(s.games());
}

// Engine `engine`'s results against `opponent`, from any pairing between them.
std::optional<MatchScore> headToHead(const MatchSummary& s, int engine, int opponent) {
    for (const auto& p : s.pairings) {
        if (p.first == engine && p.second == opponent) return p.score;
        if (p.first == opponent && p.second == engine) {
            MatchScore flipped;
            flipped.wins = p.score.losses;
            flipped.losses = p.score.wins;
            flipped.draws = p.score.draws;
            for (std::size_t i = 0; i < 5; ++i) flipped.pentanomial[i] = p.score.pentanomial[4 - i];
            return flipped;
        }
    }
    return std::nullopt;
}

// Shared by the workers; everything behind m_mutex.
class MatchState {
  public:
    MatchState(const MatchOptions& options, MatchSummary& summary, std::ostream& out)
        : m_options(options), m_summary(summary), m_out(out) {
        if (!options.pgnFile.empty()) m_pgn.open(options.pgnFile, std::ios::app);
        m_totalGames = 2 * options.pairs * int(summary.pairings.size());
    }

    bool pgnOpen() const { return m_options.pgnFile.empty() || m_pgn.is_open(); }

    void recordGame(const GameRecord& record, const GameSettings& settings, int round,
                    std::size_t pairing, bool firstIsWhite) {
        const std::lock_guard lock(m_mutex);
        PairingResult& p = m_summary.pairings[pairing];
        const double s = firstEngineScore(record.outcome, firstIsWhite);
        p.score.addGame(s);
        ++m_summary.gamesPlayed;
        const std::string& first = m_summary.names[std::size_t(p.first)];
        const std::string& second = m_summary.names[std::size_t(p.second)];
        const std::string& white = firstIsWhite ? first : second;
        const std::string& black = firstIsWhite ? second : first;
        if (m_pgn.is_open()) {
            chess::PgnGame game = toPgnGame(record, white, black, settings);
            game.tags.insert(game.tags.begin(), {{"Event", m_options.event},
                                                 {"Site", m_site},
                                                 {"Date", m_date},
                                                 {"Round", std::to_string(round)}});
            auto text = chess::toPgn(game);
            if (text) m_pgn << *text << std::flush;
        }
        const MatchScore& sc = p.score;
        m_out << "Game " << round << ": " << white << " vs " << black << " "
              << resultString(record.outcome) << " (" << record.reason << ")  | " << first << " vs "
              << second << " W-L-D: " << sc.wins << "-" << sc.losses << "-" << sc.draws << " ["
              << fixedDecimals(sc.scoreRatio(), 3) << "] " << m_summary.gamesPlayed << "/"
              << m_totalGames;
        if (m_summary.sprt) m_out << "  LLR " << fixedDecimals(m_summary.sprt->llr, 2);
        m_out << std::endl;
    }

    void note(const std::string& line) {
        const std::lock_guard lock(m_mutex);
        m_out << line << std::endl;
    }

    // Returns true when the match should stop (the SPRT has decided; two engines only).
    bool recordPair(std::size_t pairing, double first, double second) {
        const std::lock_guard lock(m_mutex);
        MatchScore& score = m_summary.pairings[pairing].score;
        score.addPentanomial(first, second);
        if (!m_options.sprt) return false;
        m_summary.sprt = computeSprt(score, *m_options.sprt);
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
    int m_totalGames = 0;
    std::string m_date = todayPgnDate();
    std::string m_site = hostName();
};

// Starts each engine once, learning its name and checking it can play this match's games.
util::Result<std::vector<std::string>> probeEngines(const MatchOptions& options,
                                                    const std::vector<EngineConfig>& configs,
                                                    const std::vector<Opening>& book) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        const EngineConfig& config = configs[i];
        if (config.protocol == Protocol::Xboard &&
            limitOf(options, int(i)).kind == TimeControl::Kind::Nodes)
            return util::makeError("engine " + std::to_string(i + 1) + " (" + config.command +
                                   ") speaks CECP (xboard), which has no node-limited search; "
                                   "give it tc=, movetime= or depth=");
        // CECP's `st` takes whole seconds in most engines.
        if (config.protocol == Protocol::Xboard &&
            limitOf(options, int(i)).kind == TimeControl::Kind::MoveTime &&
            limitOf(options, int(i)).moveTimeMs % 1000 != 0)
            return util::makeError("engine " + std::to_string(i + 1) + " (" + config.command +
                                   ") speaks CECP (xboard), whose 'st' takes whole seconds; give "
                                   "a movetime in multiples of 1000 ms");
        auto probe = makeEngine(config);
        if (!probe->ensureStarted())
            return util::makeError("cannot start engine: " + probe->error());
        std::string previous;
        for (const auto& opening : book) {
            if (opening.fen == previous) continue;
            previous = opening.fen;
            const std::string problem = probe->cannotStartFrom(opening.fen);
            if (!problem.empty()) return util::makeError(problem);
        }
        names.push_back(probe->name());
    }
    // Equal names are numbered so results, PGN and rankings can tell the engines apart.
    std::vector<std::string> unique = names;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::count(names.begin(), names.end(), names[i]) > 1)
            unique[i] += " (" + std::to_string(i + 1) + ")";
    return unique;
}

} // namespace

std::vector<std::pair<int, int>> tournamentPairings(int engines, TournamentKind kind) {
    std::vector<std::pair<int, int>> pairings;
    for (int a = 0; a < engines; ++a)
        for (int b = a + 1; b < engines; ++b)
            if (kind == TournamentKind::RoundRobin || a == 0) pairings.emplace_back(a, b);
    return pairings;
}

std::vector<Standing> computeRanking(int engines, const std::vector<PairingResult>& pairings) {
    std::vector<Standing> ranking(std::size_t(std::max(engines, 0)));
    for (int e = 0; e < engines; ++e) ranking[std::size_t(e)].engine = e;
    for (const auto& p : pairings) {
        MatchScore& a = ranking[std::size_t(p.first)].score;
        MatchScore& b = ranking[std::size_t(p.second)].score;
        a.wins += p.score.wins;
        a.losses += p.score.losses;
        a.draws += p.score.draws;
        b.wins += p.score.losses;
        b.losses += p.score.wins;
        b.draws += p.score.draws;
        for (std::size_t i = 0; i < 5; ++i) {
            a.pentanomial[i] += p.score.pentanomial[i];
            b.pentanomial[4 - i] += p.score.pentanomial[i];
        }
    }
    for (auto& s : ranking) s.elo = estimateElo(s.score);
    std::stable_sort(ranking.begin(), ranking.end(), [](const Standing& x, const Standing& y) {
        return x.score.scoreRatio() > y.score.scoreRatio();
    });
    return ranking;
}

util::Result<MatchSummary> runMatch(const MatchOptions& options, std::ostream& out,
                                    const std::atomic<bool>* interrupt) {
    const auto interrupted = [interrupt] { return interrupt && interrupt->load(); };
    const int engineCount = int(options.engines.size());
    if (engineCount < 2) return util::makeError("a match needs at least two engines");
    if (options.sprt && engineCount > 2)
        return util::makeError("the SPRT needs exactly two engines");

    std::vector<Opening> book;
    if (!options.openingsFile.empty()) {
        auto loaded = loadOpenings(options.openingsFile);
        if (!loaded) return util::makeError(loaded.error());
        book = std::move(*loaded);
    }
    // A book with Chess960 castling rights makes the whole match Chess960, so every engine is
    // told before its first game; --variant chess960 does so for any book.
    bool chess960 = options.chess960;
    for (const auto& o : book) chess960 = chess960 || o.chess960;
    if (chess960)
        for (auto& o : book) o.chess960 = true;
    std::vector<EngineConfig> configs = options.engines;
    for (auto& c : configs) c.chess960 = chess960;

    MatchSummary summary;
    // Each engine must start once before any game, so a typo in a command line is an error
    // rather than a match of forfeits; this also learns the names engines give themselves.
    auto names = probeEngines(options, configs, book);
    if (!names) return util::makeError(names.error());
    summary.names = std::move(*names);
    for (std::size_t i = 0; i < configs.size(); ++i) configs[i].name = summary.names[i];

    OpeningSequence openings;
    if (!book.empty())
        openings = OpeningSequence(std::move(book), options.openingOrder, options.seed);
    else if (chess960)
        openings = OpeningSequence({Opening{chess::Position::kStartFen, {}, true}},
                                   OpeningOrder::Sequential, 0);

    for (const auto& [a, b] : tournamentPairings(engineCount, options.tournament)) {
        PairingResult p;
        p.first = a;
        p.second = b;
        summary.pairings.push_back(p);
    }
    const int pairingCount = int(summary.pairings.size());
    const int jobs = options.pairs * pairingCount;

    MatchState state(options, summary, out);
    if (!state.pgnOpen()) return util::makeError("cannot open " + options.pgnFile);
    if (engineCount == 2) {
        out << "Match " << summary.names[0] << " vs " << summary.names[1] << ": ";
    } else {
        out << "Tournament (" << tournamentName(options.tournament) << ") of " << engineCount
            << " engines, " << pairingCount << " pairings: ";
    }
    out << 2 * jobs << " games, " << describeLimits(options) << ", " << openings.size()
        << " openings" << (chess960 ? " (Chess960)" : "") << ", concurrency " << options.concurrency
        << std::endl;

    std::atomic<int> nextJob{0};
    std::atomic<bool> stop{false};
    std::atomic<bool> stoppedByInterrupt{false};
    const int workers = std::max(1, std::min(options.concurrency, jobs));
    std::atomic<int> workersRunning{workers};
    auto worker = [&] {
        std::vector<std::unique_ptr<Engine>> instances(configs.size());
        auto instance = [&](int e) -> Engine& {
            auto& slot = instances[std::size_t(e)];
            if (!slot) slot = makeEngine(configs[std::size_t(e)]);
            return *slot;
        };
        while (!stop.load()) {
            // An interrupt only keeps new pairs from starting: `stop` would end the games in
            // flight unfinished and lose their pairs from the pentanomial count.
            if (interrupted()) {
                if (nextJob.load() < jobs) stoppedByInterrupt = true;
                break;
            }
            const int job = nextJob.fetch_add(1);
            if (job >= jobs) break;
            // Round by round, so every pairing advances together and all use the same openings.
            const int round = job / pairingCount;
            const std::size_t pairing = std::size_t(job % pairingCount);
            const int a = summary.pairings[pairing].first;
            const int b = summary.pairings[pairing].second;
            const Opening& opening = openings.at(std::size_t(round));
            double scores[2] = {0, 0};
            bool complete = true;
            for (int g = 0; g < 2; ++g) {
                const bool firstIsWhite = g == 0;
                Engine& white = instance(firstIsWhite ? a : b);
                Engine& black = instance(firstIsWhite ? b : a);
                GameSettings settings = options.game;
                settings.sideTimeControl[chess::White] =
                    configs[std::size_t(firstIsWhite ? a : b)].timeControl;
                settings.sideTimeControl[chess::Black] =
                    configs[std::size_t(firstIsWhite ? b : a)].timeControl;
                const GameRecord record = playGame(white, black, opening, settings, &stop);
                if (record.outcome == GameOutcome::Unfinished) {
                    if (!stop.load())
                        state.note("Game " + std::to_string(2 * job + g + 1) +
                                   " not played: " + record.reason);
                    complete = false;
                    break;
                }
                scores[g] = firstEngineScore(record.outcome, firstIsWhite);
                state.recordGame(record, settings, 2 * job + g + 1, pairing, firstIsWhite);
            }
            if (complete && state.recordPair(pairing, scores[0], scores[1])) stop = true;
        }
        workersRunning.fetch_sub(1);
    };
    util::WorkerThreads threads(workers, [&](int) { worker(); });
    // The interrupt is announced at once, though the games in flight may run for minutes; and
    // after the workers end too, for an interrupt between pairs lets them all end before this
    // thread's next look (seen on a loaded machine).
    bool announced = false;
    auto announceInterrupt = [&] {
        if (announced || !interrupted()) return;
        state.note("Interrupted: finishing the game pairs in flight, then the results "
                   "(interrupt again to quit at once)");
        announced = true;
    };
    while (workersRunning.load() > 0) {
        announceInterrupt();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    announceInterrupt();
    threads.join();
    summary.interrupted = stoppedByInterrupt.load() && !summary.stoppedBySprt;

    for (auto& p : summary.pairings) p.elo = estimateElo(p.score);
    summary.score = summary.pairings.front().score;
    summary.elo = summary.pairings.front().elo;
    if (engineCount > 2) summary.ranking = computeRanking(engineCount, summary.pairings);
    if (options.sprt) summary.sprt = computeSprt(summary.score, *options.sprt);
    out << formatSummary(summary, options);
    if (!options.jsonFile.empty()) {
        std::ofstream json(options.jsonFile);
        json << summaryJson(summary, options);
        if (!json) return util::makeError("cannot write " + options.jsonFile);
    }
    return summary;
}

namespace {

std::string interruptedLine(const MatchSummary& s, const MatchOptions& options) {
    const int planned = 2 * options.pairs * int(s.pairings.size());
    return "  Interrupted after " + std::to_string(s.gamesPlayed) + " of " +
           std::to_string(planned) + " games\n";
}

std::string formatTournament(const MatchSummary& s, const MatchOptions& options) {
    const std::size_t n = s.names.size();
    std::size_t width = 6;
    for (std::size_t i = 0; i < n; ++i)
        width = std::max(width, s.names[i].size() + std::to_string(i + 1).size() + 2);
    std::ostringstream o;
    o << "\nResults of the " << tournamentName(options.tournament) << " ("
      << describeLimits(options) << "):\n";
    for (const auto& p : s.pairings) {
        const MatchScore& sc = p.score;
        o << "  " << s.names[std::size_t(p.first)] << " vs " << s.names[std::size_t(p.second)]
          << ": W-L-D " << sc.wins << "-" << sc.losses << "-" << sc.draws << "  " << pointsText(sc)
          << " (" << fixedDecimals(100.0 * sc.scoreRatio(), 1) << "%)  Elo "
          << fixedDecimals(p.elo.elo, 1) << " +/- " << fixedDecimals(p.elo.error95, 1) << "\n";
    }
    o << "\nCrosstable (points of the row's engine against the column's):\n";
    o << "  " << std::left << std::setw(int(width)) << "";
    for (std::size_t c = 0; c < n; ++c)
        o << "  " << std::right << std::setw(9) << ("#" + std::to_string(c + 1));
    o << "\n";
    for (std::size_t r = 0; r < n; ++r) {
        o << "  " << std::left << std::setw(int(width))
          << ("#" + std::to_string(r + 1) + " " + s.names[r]);
        for (std::size_t c = 0; c < n; ++c) {
            const auto h = r == c ? std::nullopt : headToHead(s, int(r), int(c));
            o << "  " << std::right << std::setw(9)
              << (h ? pointsText(*h) : std::string(r == c ? "x" : "-"));
        }
        o << "\n";
    }
    o << "\nRanking (Elo against the opponents each met, 95% error):\n";
    int rank = 0;
    for (const auto& st : s.ranking) {
        o << "  " << std::right << std::setw(2) << ++rank << ". " << std::left
          << std::setw(int(width)) << s.names[std::size_t(st.engine)] << std::right << "  Elo "
          << std::setw(7) << fixedDecimals(st.elo.elo, 1) << " +/- " << std::setw(5)
          << fixedDecimals(st.elo.error95, 1) << "  Points " << pointsText(st.score) << " ("
          << fixedDecimals(100.0 * st.score.scoreRatio(), 1) << "%)\n";
    }
    if (s.interrupted) o << "\n" << interruptedLine(s, options);
    return o.str();
}

// A score's fields, added to `object`.
void addScoreJson(ReportJson& object, const MatchScore& sc, const EloEstimate& elo) {
    object["games"] = sc.games();
    object["wins"] = sc.wins;
    object["losses"] = sc.losses;
    object["draws"] = sc.draws;
    object["points"] = roundedDecimals(double(sc.wins) + 0.5 * double(sc.draws), 1);
    object["pentanomial"] = sc.pentanomial;
    object["score"] = roundedDecimals(sc.scoreRatio(), 4);
    object["elo"] = roundedDecimals(elo.elo, 2);
    object["elo_error95"] = roundedDecimals(elo.error95, 2);
}

std::string tournamentJson(const MatchSummary& s, const MatchOptions& options) {
    ReportJson doc;
    doc["tournament"] = tournamentName(options.tournament);
    doc["engines"] = s.names;
    doc["time_control"] = describeLimits(options);
    doc["games"] = s.gamesPlayed;
    doc["interrupted"] = s.interrupted;
    ReportJson pairings = ReportJson::array();
    for (const auto& p : s.pairings) {
        ReportJson entry;
        entry["first"] = s.names[std::size_t(p.first)];
        entry["second"] = s.names[std::size_t(p.second)];
        addScoreJson(entry, p.score, p.elo);
        pairings.push_back(std::move(entry));
    }
    doc["pairings"] = std::move(pairings);
    ReportJson crosstable = ReportJson::array();
    const std::size_t n = s.names.size();
    for (std::size_t r = 0; r < n; ++r) {
        ReportJson row = ReportJson::array();
        for (std::size_t c = 0; c < n; ++c) {
            const auto h = r == c ? std::nullopt : headToHead(s, int(r), int(c));
            row.push_back(
                h ? ReportJson(roundedDecimals(double(h->wins) + 0.5 * double(h->draws), 1))
                  : ReportJson(nullptr));
        }
        crosstable.push_back(std::move(row));
    }
    doc["crosstable"] = std::move(crosstable);
    ReportJson ranking = ReportJson::array();
    for (const auto& st : s.ranking) {
        ReportJson entry;
        entry["engine"] = s.names[std::size_t(st.engine)];
        addScoreJson(entry, st.score, st.elo);
        ranking.push_back(std::move(entry));
    }
    doc["ranking"] = std::move(ranking);
    return reportText(doc);
}

} // namespace

std::string formatScoreLines(const MatchScore& sc, const EloEstimate& elo,
                             const std::optional<SprtConfig>& config,
                             const std::optional<SprtResult>& sprt, bool stoppedBySprt) {
    std::ostringstream o;
    o << "  Games: " << sc.games() << "  W: " << sc.wins << "  L: " << sc.losses
      << "  D: " << sc.draws
      << "  Points: " << fixedDecimals(double(sc.wins) + 0.5 * double(sc.draws), 1) << " ("
      << fixedDecimals(100.0 * sc.scoreRatio(), 1) << "%)\n";
    o << "  Pentanomial [LL, LD, DD+WL, WD, WW]: [" << sc.pentanomial[0] << ", "
      << sc.pentanomial[1] << ", " << sc.pentanomial[2] << ", " << sc.pentanomial[3] << ", "
      << sc.pentanomial[4] << "]\n";
    o << "  Elo: " << fixedDecimals(elo.elo, 1) << " +/- " << fixedDecimals(elo.error95, 1)
      << " (95%)  nElo: " << fixedDecimals(elo.nElo, 1) << " +/- "
      << fixedDecimals(elo.nEloError95, 1) << "  LOS: " << fixedDecimals(100.0 * elo.los, 1)
      << "%  Draw ratio: " << fixedDecimals(100.0 * sc.drawRatio(), 1) << "%\n";
    if (sprt && config) {
        o << "  SPRT (normalised Elo) [" << fixedDecimals(config->elo0, 2) << ", "
          << fixedDecimals(config->elo1, 2) << "], alpha " << config->alpha << ", beta "
          << config->beta << ": LLR " << fixedDecimals(sprt->llr, 2) << " ["
          << fixedDecimals(sprt->lowerBound, 2) << ", " << fixedDecimals(sprt->upperBound, 2)
          << "] " << toString(sprt->state) << (stoppedBySprt ? " (match stopped early)" : "")
          << "\n";
    }
    return o.str();
}

std::string formatSummary(const MatchSummary& s, const MatchOptions& options) {
    if (s.names.size() > 2) return formatTournament(s, options);
    std::ostringstream o;
    o << "\nResults of " << s.names[0] << " vs " << s.names[1] << " (" << describeLimits(options)
      << "):\n";
    o << formatScoreLines(s.score, s.elo, options.sprt, s.sprt, s.stoppedBySprt);
    if (s.interrupted) o << interruptedLine(s, options);
    return o.str();
}

std::string summaryJson(const MatchSummary& s, const MatchOptions& options) {
    if (s.names.size() > 2) return tournamentJson(s, options);
    const MatchScore& sc = s.score;
    ReportJson doc;
    doc["engines"] = {s.names[0], s.names[1]};
    doc["time_control"] = describeLimits(options);
    doc["games"] = sc.games();
    doc["wins"] = sc.wins;
    doc["losses"] = sc.losses;
    doc["draws"] = sc.draws;
    doc["pentanomial"] = sc.pentanomial;
    doc["score"] = roundedDecimals(sc.scoreRatio(), 4);
    doc["elo"] = roundedDecimals(s.elo.elo, 2);
    doc["elo_error95"] = roundedDecimals(s.elo.error95, 2);
    doc["nelo"] = roundedDecimals(s.elo.nElo, 2);
    doc["nelo_error95"] = roundedDecimals(s.elo.nEloError95, 2);
    doc["los"] = roundedDecimals(s.elo.los, 4);
    doc["draw_ratio"] = roundedDecimals(sc.drawRatio(), 4);
    doc["interrupted"] = s.interrupted;
    if (s.sprt && options.sprt) {
        ReportJson sprt;
        sprt["elo_model"] = "normalized";
        sprt["elo0"] = options.sprt->elo0;
        sprt["elo1"] = options.sprt->elo1;
        sprt["alpha"] = options.sprt->alpha;
        sprt["beta"] = options.sprt->beta;
        sprt["llr"] = roundedDecimals(s.sprt->llr, 4);
        sprt["lower_bound"] = roundedDecimals(s.sprt->lowerBound, 4);
        sprt["upper_bound"] = roundedDecimals(s.sprt->upperBound, 4);
        sprt["state"] = toString(s.sprt->state);
        sprt["stopped_early"] = s.stoppedBySprt;
        doc["sprt"] = std::move(sprt);
    }
    return reportText(doc);
}

} // namespace axon::match
