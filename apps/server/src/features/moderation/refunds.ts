/**
 * Rating refunds of a mark (docs/moderation.md "Refunds"; issue 55 item 4): every opponent a marked player
 * beat in a rated race (arena races included) gets back what that result cost them. Pure: no I/O, no clock.
 */

/** One racer of a rated race, as the race stored them once rated. */
export interface RatedRacer {
  readonly playerId: string;
  /** Final place, 1 = winner; null: no place (left out of the rating). */
  readonly placement: number | null;
  /** The racer's rating before and after the race's result (Glicko scale), null when not rated. */
  readonly ratingBefore: number | null;
  readonly ratingAfter: number | null;
}

/** A rated race the marked player took part in. */
export interface RatedRace {
  readonly raceCode: string;
  /** The rating pool the race counted in (ratings/periods.ts `racePool`). */
  readonly pool: string;
  readonly racers: readonly RatedRacer[];
}

/** Points given back to one opponent for one race. */
export interface Refund {
  readonly playerId: string;
  readonly raceCode: string;
  readonly pool: string;
  /** Rating points (Glicko scale, unrounded): the opponent's rating before the race minus after it, > 0. */
  readonly points: number;
}

/**
 * The refunds a mark of `markedId` gives: for each race of `races` where the marked player has a place,
 * every other racer placed below them (a greater placement) whose rating fell in that race gets back
 * `ratingBefore − ratingAfter` in that race's pool. A racer who gained, or was not rated, gets nothing; a
 * race the marked player has no place in, or is absent from, gives nothing. One refund per opponent and
 * race, in the order of `races` then of their racers.
 */
export function refundsOf(markedId: string, races: readonly RatedRace[]): Refund[] {
  const out: Refund[] = [];
  for (const race of races) {
    const marked = race.racers.find((r) => r.playerId === markedId);
    if (marked?.placement == null) continue;
    for (const r of race.racers) {
      if (r.playerId === markedId || r.placement === null || r.placement <= marked.placement) continue;
      if (r.ratingBefore === null || r.ratingAfter === null) continue;
      const points = r.ratingBefore - r.ratingAfter;
      if (points > 0) out.push({ playerId: r.playerId, raceCode: race.raceCode, pool: race.pool, points });
    }
  }
  return out;
}
