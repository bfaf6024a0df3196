// SPDX-License-Identifier: GPL-3.0-or-later
// Strength limiting for human opponents: maps a target Elo (or a 0..20 skill level) to a node
// budget and a score margin, and picks the played move among the near-best root lines. The
// calibration data behind the map lives in skill.cpp; docs/strength.md tells how it was measured.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace axon::search {

// The Elo range the map is calibrated for (Stockfish 15.1's UCI_Elo levels as anchors).
constexpr int kSkillMinElo = 1000;
constexpr int kSkillMaxElo = 2400;
// Skill Level 20 is full strength; 0..19 map linearly onto kSkillMinElo..kSkillMaxElo.
constexpr int kSkillMaxLevel = 20;

struct SkillSettings {
    bool enabled = false;
    int elo = kSkillMaxElo;
    std::uint64_t nodes = 0; // node budget per move
    int margin = 0;          // centipawns below the best line that may still be played
    // Root lines searched to choose among (internal MultiPV; only the requested ones are shown).
    int lines = 4;
    std::uint64_t seed = 0; // seeds the choice; equal seeds and inputs give the same move
};

// Settings for a target Elo, clamped to [kSkillMinElo, kSkillMaxElo].
SkillSettings skillForElo(int elo);
// Settings for a Skill Level; level >= kSkillMaxLevel is full strength (disabled).
SkillSettings skillForLevel(int level);
// The Elo a Skill Level below kSkillMaxLevel stands for.
int eloForSkillLevel(int level);

struct SkillCandidate {
    chess::Move move;
    int score = 0;
};

// Chooses among `lines` (best first, from one completed iteration): lines within `margin` of
// the best may be played, each with weight exp(-(best - score) / (margin / 2)), so a wider
// margin (a weaker setting) plays worse moves more often. Returns the index into `lines`.
// Deterministic for a given seed.
std::size_t pickSkillLine(const std::vector<SkillCandidate>& lines, int margin, std::uint64_t seed);

} // namespace axon::search
