/** The races' settings (RACE_*, RATED_MIN_*): their slice of `AppConfig`. */
import { MAX_SOLVE_TIME_MS } from '@klondike/protocol';
import { z } from 'zod';

/** The races' settings. */
export interface RacesConfig {
  /** A race lobby nobody starts within this many ms is closed as abandoned (env RACE_LOBBY_TTL_MS, default 2 h). */
  readonly raceLobbyTtlMs: number;
  /** Countdown of a race, ms: every racer's game is created at its end (env RACE_COUNTDOWN_MS, default 3000). */
  readonly raceCountdownMs: number;
  /** A racer away (no race socket) this long during a race forfeits, ms (env RACE_AWAY_FORFEIT_MS, default 60000). */
  readonly raceAwayForfeitMs: number;
  /**
   * Race look-ups by invite code (GET and join) per client per minute (env RACE_RATE_MAX, default 30; 0 = no
   * extra limit), so codes cannot be enumerated; sockets get the same number of unknown-code subscribes.
   */
  readonly raceRateMax: number;
  /** Solver time per candidate deal of a `certified` race, ms (env RACE_CERTIFY_MS, default 1000). */
  readonly raceCertifyMs: number;
  /**
   * How old an account must be to create, join or rematch a custom rated race, ms (env
   * RATED_MIN_ACCOUNT_AGE_MS, default 1 day; 0 = no minimum). docs/ratings.md "No farming".
   */
  readonly ratedMinAccountAgeMs: number;
  /**
   * How many finished games (won, blocked or resigned, with at least one move made) an account needs to
   * create, join or rematch a custom rated race (env RATED_MIN_FINISHED_GAMES, default 3; 0 = none).
   */
  readonly ratedMinFinishedGames: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the races' settings join AppConfig
  interface AppConfig extends RacesConfig {}
}

/** The races' slice of the configuration. */
export const RACES_CONFIG = z
  .object({
    RACE_LOBBY_TTL_MS: z.coerce
      .number()
      .int()
      .min(60_000)
      .default(2 * 3_600_000),
    RACE_COUNTDOWN_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
    RACE_AWAY_FORFEIT_MS: z.coerce.number().int().min(1).default(60_000),
    RACE_RATE_MAX: z.coerce.number().int().min(0).default(30),
    RACE_CERTIFY_MS: z.coerce.number().int().min(1).max(MAX_SOLVE_TIME_MS).default(1_000),
    RATED_MIN_ACCOUNT_AGE_MS: z.coerce.number().int().min(0).default(86_400_000),
    RATED_MIN_FINISHED_GAMES: z.coerce.number().int().min(0).max(1000).default(3),
  })
  .transform((e): RacesConfig => ({
    raceLobbyTtlMs: e.RACE_LOBBY_TTL_MS,
    raceCountdownMs: e.RACE_COUNTDOWN_MS,
    raceAwayForfeitMs: e.RACE_AWAY_FORFEIT_MS,
    raceRateMax: e.RACE_RATE_MAX,
    raceCertifyMs: e.RACE_CERTIFY_MS,
    ratedMinAccountAgeMs: e.RATED_MIN_ACCOUNT_AGE_MS,
    ratedMinFinishedGames: e.RATED_MIN_FINISHED_GAMES,
  }));
