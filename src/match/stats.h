// SPDX-License-Identifier: GPL-3.0-or-later
// Match statistics: W/D/L, pentanomial pair counts, Elo with its error, LOS, and the SPRT.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace axon::match {

// Results from the first engine's point of view. Pentanomial index = points the first engine
// scored in a game pair, doubled: 0 = LL, 1 = LD, 2 = DD or WL, 3 = WD, 4 = WW.
struct MatchScore {
    std::int64_t wins = 0, draws = 0, losses = 0;
    std::array<std::int64_t, 5> pentanomial{};

    std::int64_t games() const { return wins + draws + losses; }
    std::int64_t pairs() const;
    // Points per game in [0, 1]; 0.5 when no game was played.
    double scoreRatio() const;
    double drawRatio() const;
    // Records one game (W/D/L only) given the first engine's score (0, 0.5 or 1).
    void addGame(double score);
    // Records a finished pair's pentanomial count only: a match adds each game as it ends.
    void addPentanomial(double first, double second);
    // Both of the above for a game pair.
    void addPair(double first, double second);
};

// Elo from the pentanomial distribution (pairs are the independent trials, which removes the
// opening's bias from the variance).
struct EloEstimate {
    double elo = 0;     // logistic Elo of the mean score
    double error95 = 0; // half width of the 95% interval, in Elo
    double los = 0.5;   // likelihood of superiority, in [0, 1]
    double nElo = 0;    // normalised Elo (fishtest's definition, per game)
    double nEloError95 = 0;
};
EloEstimate estimateElo(const MatchScore& score);

// Logistic Elo of a score ratio, clamped to stay finite at 0 and 1.
double scoreToElo(double score);

struct SprtConfig {
    // Bounds in NORMALISED Elo, as fishtest uses them.
    double elo0 = 0, elo1 = 5;
    double alpha = 0.05, beta = 0.05;
};

enum class SprtState { Continue, AcceptH0, AcceptH1 };

struct SprtResult {
    double llr = 0;
    double lowerBound = 0; // log(beta / (1 - alpha)): accept H0 at or below
    double upperBound = 0; // log((1 - beta) / alpha): accept H1 at or above
    SprtState state = SprtState::Continue;
};

// The generalised SPRT on the pentanomial pair scores, with the normal approximation of the
// log-likelihood ratio: LLR = N (mu1 - mu0) (2 mu - mu0 - mu1) / (2 var), where mu and var are
// the mean and variance of a pair's score per game, and mu0 / mu1 the means that normalised
// Elo elo0 / elo1 correspond to at that variance.
SprtResult computeSprt(const MatchScore& score, const SprtConfig& config);

const char* toString(SprtState state);

} // namespace axon::match
