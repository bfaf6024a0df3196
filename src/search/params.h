// SPDX-License-Identifier: GPL-3.0-or-later
// The search's tunable numbers (margins, divisors, windows) in one list, so that SPSA
// (bench/spsa.py) can tune them. A normal build makes each a compile-time constant; a tune build
// (cmake -DAXON_TUNE=ON) makes them variables that the engine offers as `Tune_<name>` options.
// Values are in the evaluation's centipawns unless the name says otherwise. The 14 margins of the
// SPSA run net5-run1 (docs/tuning.md) carry its values: +31.9 +/- 12.2 at 20k against the old ones.
#pragma once

#include <span>

// X(name, default, min, max)
#define AXON_SEARCH_PARAMS(X)                                                                      \
    X(aspirationDelta, 25, 8, 80)        /* first half-width of the root window */                 \
    X(razorMargin, 247, 100, 500)        /* per depth, step 5 */                                   \
    X(rfpMargin, 71, 30, 200)            /* reverse futility, per depth, step 6 */                 \
    X(nullMoveMarginBase, 0, -100, 400)  /* null move: static eval over beta by this... */         \
    X(nullMoveMarginSlope, 0, 0, 50)     /* ...less this per depth */                              \
    X(nullMoveBase, 400, 150, 500)       /* null-move reduction, hundredths of a ply */            \
    X(nullMoveDepthGain, 33, 0, 60)      /* ...plus this many hundredths per depth */              \
    X(nullMoveEvalDivisor, 199, 80, 500) /* extra null-move reduction per this much over beta */   \
    X(futilityBase, 93, 0, 300)          /* quiet futility at depth 0, step 11 */                  \
    X(futilityMargin, 99, 30, 250)       /* quiet futility, per depth */                           \
    X(seeQuietMargin, 44, 10, 150)       /* a quiet may lose this much material per depth */       \
    X(seeNoisyMargin, 90, 30, 250)       /* a capture may lose this much material per depth */     \
    X(doubleExtensionMargin, 20, 0, 80)  /* below the singular beta for a double extension */      \
    X(lmrBase, 79, 0, 200)               /* LMR: hundredths of a ply added to every reduction */   \
    X(lmrDivisor, 206, 100, 400)         /* LMR: log(depth) * log(moves) / (this / 100) */         \
    X(lmrHistoryDivisor, 6824, 2048, 24576) /* one ply less reduction per this much history */     \
    X(qsFutilityMargin, 250, 50, 400)    /* quiescence: a capture must reach alpha within this */  \
    X(correctionPawnWeight, 100, 0, 200) /* correction history: percent of the pawn table */       \
    X(correctionNonPawnWeight, 60, 0, 200)   /* ...and of each side's non-pawn table */            \
    X(probCutMargin, 227, 80, 400)           /* ProbCut: a capture must beat beta by this */       \
    X(historyPruneMargin, 4572, 1024, 12288) /* prune a shallow quiet below -this per depth */     \
    X(historyPruneMaxDepth, 4, 1, 8)         /* ...up to this depth */                             \
    X(historyBonusQuadratic, 16, 4, 48)      /* history bonus: this * depth^2 ... */               \
    X(historyBonusLinear, 32, 0, 128)        /* ...plus this * depth... */                         \
    X(historyBonusMax, 1600, 400, 4000)      /* ...at most this */                                 \
    X(aspirationMinDepth, 4, 1, 8)           /* iterations from this depth use a window */         \
    X(razorMaxDepth, 3, 1, 6)                                                                      \
    X(rfpMaxDepth, 8, 4, 12)                                                                       \
    X(nullMoveMinDepth, 3, 1, 6)                                                                   \
    X(nullMoveEvalMaxR, 6, 1, 9)      /* at most this much extra reduction from the eval */        \
    X(nullMoveVerifyDepth, 12, 6, 20) /* verify null-move cutoffs from this depth */               \
    X(iirMinDepth, 4, 2, 8)           /* internal iterative reduction without a hash move */       \
    X(probCutMinDepth, 5, 3, 8)                                                                    \
    X(lmpBase, 3, 1, 8) /* late-move pruning: (this + depth^2) quiets... */                        \
    X(futilityMaxDepth, 8, 4, 12)                                                                  \
    X(seeQuietMaxDepth, 8, 4, 12)                                                                  \
    X(seeNoisyMaxDepth, 8, 4, 12)                                                                  \
    X(singularMinDepth, 8, 4, 12)                                                                  \
    X(singularTtDepthMargin, 3, 1, 6)  /* the hash entry at most this shallower */                 \
    X(singularBetaScale, 208, 50, 600) /* singular beta: hash score less this * depth / 100 */     \
    X(maxDoubleExtensions, 6, 2, 12)   /* along one line */                                        \
    X(lmrMinDepth, 3, 2, 5)                                                                        \
    X(qsSeeThreshold, 0, -100, 100)        /* quiescence skips captures losing more than this */   \
    X(threatEscapeBonus, 16384, 0, 40000)  /* quiet order: a threatened piece moves away */        \
    X(threatEnPriseMalus, 16384, 0, 40000) /* ...a piece steps where a cheaper one attacks */      \
    X(probCutDepthReduction, 4, 2, 6)      /* ProbCut's verification search: depth less this */    \
    X(probCutTtDepthMargin, 3, 1, 6)       /* a hash score this much shallower may veto it */      \
    /* Time management (timeman.cpp; tune these with games at a time control, not fixed nodes) */  \
    X(tmMovesHorizon, 50, 20, 80)    /* moves left to plan for at the start of a game... */        \
    X(tmMinMovesLeft, 20, 10, 40)    /* ...falling by one per this many plies (below) to this */   \
    X(tmPliesPerMove, 4, 2, 8)       /* ...one planned move less per this many plies played */     \
    X(tmReserveHorizon, 50, 10, 80)  /* moves whose Move Overhead stays in reserve */              \
    X(tmMaxSharePercent, 40, 20, 70) /* never plan past this share of the clock... */              \
    X(tmLastMoveSharePercent, 90, 50, 95) /* ...or this one before the time control */             \
    X(tmHardRatio, 4, 2, 8)               /* the hard limit: at most this times the soft one */    \
    X(tmSoftScalePercent, 130, 80, 200)   /* soft limit scale with an unstable best move... */     \
    X(tmStabilityStepPercent, 8, 0, 20)   /* ...less this per iteration it stayed the same... */   \
    X(tmStabilityMax, 8, 1, 12)           /* ...counted up to this many iterations */              \
    X(tmScoreDropPercent, 60, 0, 150)     /* more time: this percent for a drop of ... */          \
    X(tmScoreDropMax, 100, 25, 300)       /* ...this many centipawns or more */

namespace axon::search::params {

#ifdef AXON_TUNE
#define AXON_PARAM_DECLARE(name, value, lo, hi) inline int name = value;
#else
#define AXON_PARAM_DECLARE(name, value, lo, hi) inline constexpr int name = value;
#endif
AXON_SEARCH_PARAMS(AXON_PARAM_DECLARE)
#undef AXON_PARAM_DECLARE

#define AXON_PARAM_CHECK(name, value, lo, hi)                                                      \
    static_assert((lo) <= (value) && (value) <= (hi), #name " outside its range");
AXON_SEARCH_PARAMS(AXON_PARAM_CHECK)
#undef AXON_PARAM_CHECK

struct Tunable {
    const char* name;
    int defaultValue, min, max;
    int* value;
};

// Every parameter in a tune build; empty in a normal one, whose parameters cannot change.
std::span<const Tunable> tunables();

} // namespace axon::search::params
