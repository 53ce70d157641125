/**
 * Who may sit in a custom rated room (docs/ratings.md "No farming"): an account at least `minAccountAgeMs`
 * old with at least `minFinishedGames` finished games (won, blocked or resigned, with at least one move
 * made). Checked when a rated room is created (POST /api/races `rated: true`), joined, or asked for as a
 * rematch of a rated race; quick pairing and arenas make their own rated races and are not checked here
 * (their guard is the pairing's, and the farming rule of ratings/farming.ts holds for every race).
 *
 * The facts are rows (`Player.createdAt`, the player's games), so every node answers the same.
 */
import { ApiError } from '../../infra/errors.js';
import type { RaceRepository } from './repository.js';

/** The thresholds (config `ratedMinAccountAgeMs`, `ratedMinFinishedGames`). */
export interface RatedEligibilityRules {
  /** Minimum account age, ms (0: none). */
  readonly minAccountAgeMs: number;
  /** Minimum number of finished games (0: none). */
  readonly minFinishedGames: number;
}

/** What the check reads. */
export interface RatedEligibilityOptions {
  readonly repository: RaceRepository;
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  readonly rules: RatedEligibilityRules;
}

/** See the module comment. */
export class RatedEligibility {
  constructor(private readonly opts: RatedEligibilityOptions) {}

  /**
   * Refuses unless every player of `playerIds` may sit in a rated room; does nothing when `rated` is false.
   * Errors: `forbidden` (403) naming the rule the first ineligible account misses (too new, or too few
   * finished games); `not-found` for an unknown player.
   */
  async assert(rated: boolean, playerIds: readonly string[]): Promise<void> {
    if (!rated) return;
    for (const id of new Set(playerIds)) await this.assertOne(id);
  }

  /**
   * Refuses the caller's rematch of a rated race unless they may sit in a rated room. A rematch seats only
   * its caller (races/rematch.ts); the others are checked when they join. Errors: as `assert`.
   */
  async assertRematch(race: { readonly rated: boolean }, callerId: string): Promise<void> {
    await this.assert(race.rated, [callerId]);
  }

  /**
   * Refuses unless `playerId` may take a seat in race `code` when that race is rated (a join).
   * Errors: as `assert`; an unknown race is left to the join itself (its `not-found`).
   */
  async assertJoin(code: string, playerId: string): Promise<void> {
    const race = await this.opts.repository.seatOf(code, playerId);
    // A racer already seated keeps the seat they have (a join changes nothing for them).
    if (race === null || race.seated) return;
    await this.assert(race.rated, [playerId]);
  }

  private async assertOne(playerId: string): Promise<void> {
    const { minAccountAgeMs, minFinishedGames } = this.opts.rules;
    const repository = this.opts.repository;
    const createdAt = await repository.accountCreatedAt(playerId);
    if (createdAt === null) throw new ApiError('not-found', `no player ${playerId}`);
    const ageMs = this.opts.now() - createdAt.getTime();
    if (ageMs < minAccountAgeMs)
      throw new ApiError(
        'forbidden',
        `rated races need accounts at least ${hours(minAccountAgeMs)} old: play unrated races until then`,
      );
    if (minFinishedGames === 0) return;
    const finished = await repository.finishedGames(playerId, minFinishedGames);
    if (finished < minFinishedGames)
      throw new ApiError(
        'forbidden',
        `rated races need at least ${minFinishedGames} finished games on the account (it has ${finished})`,
      );
  }
}

/** `ms` as whole hours, e.g. `24 h`. */
function hours(ms: number): string {
  return `${Math.ceil(ms / 3_600_000)} h`;
}
