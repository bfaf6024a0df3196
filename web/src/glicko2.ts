// SPDX-License-Identifier: GPL-3.0-or-later
// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation and
// volatility updated after a rating period of games. The puzzle rating plays each puzzle as one
// game against an opponent of the puzzle's rating and deviation. Pure.

export interface Glicko2Rating {
  /** On the Glicko scale (1500 = the start). */
  rating: number;
  /** Rating deviation (350 = nothing known). */
  rd: number;
  volatility: number;
}

export interface Glicko2Game {
  opponentRating: number;
  opponentRd: number;
  /** 1 win, 0.5 draw, 0 loss. */
  score: number;
}

/** The system constant τ: how much the volatility may change (Glickman suggests 0.3 to 1.2). */
export const kTau = 0.5;
/** Glicko-2's scale factor between the Glicko and Glicko-2 scales. */
const kScale = 173.7178;
/** Convergence tolerance of the volatility iteration. */
const kEpsilon = 0.000001;

export const kInitialRating: Glicko2Rating = { rating: 1500, rd: 350, volatility: 0.06 };

const g = (phi: number): number => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/** The rating after `games` (one rating period); with none, only the deviation grows (step 6). */
export function glicko2Update(player: Glicko2Rating, games: readonly Glicko2Game[], tau: number = kTau): Glicko2Rating {
  // Step 2: to the Glicko-2 scale.
  const mu = (player.rating - 1500) / kScale;
  const phi = player.rd / kScale;
  const sigma = player.volatility;
  if (!games.length) return { ...player, rd: Math.min(350, Math.sqrt(phi * phi + sigma * sigma) * kScale) };
  // Steps 3 and 4: the estimated variance v and the improvement delta.
  let vInverse = 0;
  let deltaSum = 0;
  for (const game of games) {
    const muJ = (game.opponentRating - 1500) / kScale;
    const phiJ = game.opponentRd / kScale;
    const e = expected(mu, muJ, phiJ);
    vInverse += g(phiJ) ** 2 * e * (1 - e);
    deltaSum += g(phiJ) * (game.score - e);
  }
  const v = 1 / vInverse;
  const delta = v * deltaSum;
  // Step 5: the new volatility, by the Illinois algorithm on f.
  const a = Math.log(sigma * sigma);
  const f = (x: number): number => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; Math.abs(B - A) > kEpsilon && i < 100; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Steps 6 to 8: the new deviation and rating, back on the Glicko scale.
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * deltaSum;
  return { rating: muNew * kScale + 1500, rd: phiNew * kScale, volatility: sigmaNew };
}
