/**
 * Arena scoring (docs/arenas.md "Scoring"): pure. A race's winner (placement 1 of 2, alone) scores WIN_POINTS,
 * a loser 0. After FIRE_AFTER_WINS wins in a row a player is on fire: each further win counts double, until a
 * race that is not a win. A won berserk race adds BERSERK_BONUS (never doubled).
 */

/** Points of a win. */
export const WIN_POINTS = 2;
/** Wins in a row after which a win counts double. */
export const FIRE_AFTER_WINS = 2;
/** Extra point of a won berserk race. */
export const BERSERK_BONUS = 1;

/** A player's score in one arena. */
export interface ArenaScore {
  readonly points: number;
  readonly games: number;
  readonly wins: number;
  /** Wins in a row now. */
  readonly streak: number;
}

/** A new player's score. */
export const NO_SCORE: ArenaScore = { points: 0, games: 0, wins: 0, streak: 0 };

/** Whether the next win of `s` counts double. */
export function onFire(s: ArenaScore): boolean {
  return s.streak >= FIRE_AFTER_WINS;
}

/** The points one race adds to a player scored `s`: `won` it or not, having gone `berserk` or not. */
export function racePoints(s: ArenaScore, won: boolean, berserk: boolean): number {
  if (!won) return 0;
  return (onFire(s) ? 2 * WIN_POINTS : WIN_POINTS) + (berserk ? BERSERK_BONUS : 0);
}

/** `s` after one more race. */
export function addRace(s: ArenaScore, won: boolean, berserk: boolean): ArenaScore {
  return {
    points: s.points + racePoints(s, won, berserk),
    games: s.games + 1,
    wins: s.wins + (won ? 1 : 0),
    streak: won ? s.streak + 1 : 0,
  };
}
