// SPDX-License-Identifier: GPL-3.0-or-later
// The statistics behind a match summary and the SPRT stopping rule.
#include "match/stats.h"

#include <algorithm>
#include <cmath>

namespace axon::match {

namespace {

constexpr double kZ95 = 1.959963984540054;
// Normalised Elo per unit of t-value (score excess over one game's standard deviation): 800 / ln
// 10, fishtest's scale, chosen so that nElo matches logistic Elo near 50% when there are no draws.
const double kNEloPerT = 800.0 / std::log(10.0);

struct PairMoments {
    double pairs = 0;
    double mean = 0.5;   // per game
    double variance = 0; // of one pair's per-game score
};

// Mean and variance of the pair scores (0, 1/4, 1/2, 3/4, 1). `regularise` gives empty bins a
// tiny weight so a lopsided match (all pairs won) has a finite variance and LLR; the estimate
// is unchanged in any real sample.
PairMoments pairMoments(const MatchScore& s, bool regularise) {
    std::array<double, 5> counts{};
    double n = 0;
    for (int i = 0; i < 5; ++i) {
        counts[i] = double(s.pentanomial[i]);
        if (regularise && counts[i] == 0) counts[i] = 1e-3;
        n += counts[i];
    }
    PairMoments m;
    m.pairs = double(s.pairs());
    if (n <= 0) return m;
    double mean = 0;
    for (int i = 0; i < 5; ++i) mean += counts[i] * i / 4.0;
    mean /= n;
    double var = 0;
    for (int i = 0; i < 5; ++i) var += counts[i] * (i / 4.0 - mean) * (i / 4.0 - mean);
    m.mean = mean;
    m.variance = var / n;
    return m;
}

double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

} // namespace

std::int64_t MatchScore::pairs() const {
    std::int64_t n = 0;
    for (auto c : pentanomial) n += c;
    return n;
}

double MatchScore::scoreRatio() const {
    return games() ? (double(wins) + 0.5 * double(draws)) / double(games()) : 0.5;
}

double MatchScore::drawRatio() const { return games() ? double(draws) / double(games()) : 0.0; }

void MatchScore::addGame(double score) {
    if (score > 0.75)
        ++wins;
    else if (score < 0.25)
        ++losses;
    else
        ++draws;
}

void MatchScore::addPentanomial(double first, double second) {
    ++pentanomial[std::size_t(std::lround((first + second) * 2.0))];
}

void MatchScore::addPair(double first, double second) {
    addGame(first);
    addGame(second);
    addPentanomial(first, second);
}

double scoreToElo(double score) {
    const double s = std::clamp(score, 1e-3, 1.0 - 1e-3);
    return -400.0 * std::log10(1.0 / s - 1.0);
}

EloEstimate estimateElo(const MatchScore& score) {
    EloEstimate e;
    PairMoments m = pairMoments(score, false);
    if (m.pairs <= 0) return e;
    // All pairs alike (e.g. all won) would claim zero uncertainty; the regularised spread keeps
    // the error bars and normalised Elo meaningful instead.
    if (m.variance <= 0) m.variance = pairMoments(score, true).variance;
    e.elo = scoreToElo(m.mean);
    const double stdError = std::sqrt(m.variance / m.pairs);
    e.error95 = (scoreToElo(m.mean + kZ95 * stdError) - scoreToElo(m.mean - kZ95 * stdError)) / 2.0;
    if (stdError > 0)
        e.los = normalCdf((m.mean - 0.5) / stdError);
    else
        e.los = m.mean > 0.5 ? 1.0 : m.mean < 0.5 ? 0.0 : 0.5;
    // A pair averages two games, so one game's standard deviation is sqrt(2) times the pair's.
    const double sigmaPerGame = std::sqrt(2.0 * m.variance);
    if (sigmaPerGame > 0) {
        e.nElo = (m.mean - 0.5) / sigmaPerGame * kNEloPerT;
        e.nEloError95 = kZ95 * stdError / sigmaPerGame * kNEloPerT;
    }
    return e;
}

SprtResult computeSprt(const MatchScore& score, const SprtConfig& config) {
    SprtResult r;
    r.lowerBound = std::log(config.beta / (1.0 - config.alpha));
    r.upperBound = std::log((1.0 - config.beta) / config.alpha);
    const PairMoments m = pairMoments(score, true);
    if (m.pairs <= 0 || m.variance <= 0) return r;
    const double sigmaPerGame = std::sqrt(2.0 * m.variance);
    // Normalised Elo -> expected per-game score at the observed spread.
    const double mu0 = 0.5 + config.elo0 / kNEloPerT * sigmaPerGame;
    const double mu1 = 0.5 + config.elo1 / kNEloPerT * sigmaPerGame;
    r.llr = m.pairs * (mu1 - mu0) * (2.0 * m.mean - mu0 - mu1) / (2.0 * m.variance);
    if (r.llr >= r.upperBound)
        r.state = SprtState::AcceptH1;
    else if (r.llr <= r.lowerBound)
        r.state = SprtState::AcceptH0;
    return r;
}

const char* toString(SprtState state) {
    switch (state) {
    case SprtState::AcceptH0: return "H0 accepted";
    case SprtState::AcceptH1: return "H1 accepted";
    case SprtState::Continue: break;
    }
    return "continue";
}

} // namespace axon::match
