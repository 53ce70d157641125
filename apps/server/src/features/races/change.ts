/**
 * What one event does to a race room, as data (races/transitions.ts decides it, repository.ts writes it,
 * room-writer.ts runs its effects): the rows to write in the room's locked transaction, and what follows the
 * commit. A file of its own so that the repository and the decisions both read it and neither the other.
 */
import type { RatingPool } from '@klondike/protocol';
import type { ApiError } from '../../infra/errors.js';
import type { RaceProgress } from './events.js';

/** A room's status (`Race.status`). */
export type RaceStatus = 'lobby' | 'countdown' | 'running' | 'finished';

/** Fields of the `Race` row a change sets (absent: unchanged). */
export interface RaceFields {
  readonly status?: RaceStatus;
  readonly startsAt?: Date;
  readonly endsAt?: Date | null;
  readonly endedAt?: Date;
  readonly endReason?: string;
}

/** Fields of a `RaceRacer` row a change sets (absent: unchanged; `progress: null` clears it). */
export interface RacerFields {
  readonly ready?: boolean;
  readonly gameId?: string;
  readonly progress?: RaceProgress | null;
  readonly progressVersion?: number;
  readonly away?: boolean;
  readonly forfeitAt?: Date | null;
  readonly forfeited?: boolean;
  readonly connectedAt?: Date;
  readonly placement?: number | null;
  readonly berserk?: boolean;
}

/** A rated race's result to rate, once (the repository claims `ratedAt` = `at` first). */
export interface RatingClaim {
  readonly pool: RatingPool;
  /** The rating period, `YYYY-MM-DD` (UTC day of `at`). */
  readonly day: string;
  readonly at: Date;
  /** The rated racers' placements (void racers left out). */
  readonly placements: readonly { playerId: string; placement: number }[];
}

/** The rows one event writes in the room's transaction (the repository applies them in this order). */
export interface RaceChange {
  /** A new racer seated. */
  readonly seat?: { readonly playerId: string; readonly seat: number; readonly joinedAt: Date };
  /** Racer rows updated, in order (a racer may appear more than once: the later write wins). */
  readonly racers?: readonly { readonly playerId: string; readonly set: RacerFields }[];
  /** The `Race` row's fields. */
  readonly race?: RaceFields;
  /** Every racer is ready (the countdown began). */
  readonly allReady?: boolean;
  /** Node `nodeId`'s socket count of `viewer` (0: its row goes). */
  readonly presence?: { readonly nodeId: string; readonly viewer: string; readonly sockets: number };
  /** Every presence row of the room goes (it finished). */
  readonly clearPresence?: boolean;
  /** The presence rows of nodes other than these go (dead nodes). */
  readonly presenceOnlyOf?: readonly string[];
  /** A rated race's result to rate. */
  readonly rate?: RatingClaim;
}

/** What follows the commit of a change. */
export interface RaceEffects {
  /** Racers' games the server resigns after the commit, before anyone hears of it. */
  readonly resign?: readonly { gameId: string; owner: string }[];
  /** Progress events published before the room. */
  readonly progress?: readonly { playerId: string; progress: RaceProgress }[];
  /** A timer fact changed: wake the sweeper. */
  readonly due?: boolean;
}

/** An event's outcome: the change (null: nothing changes) and its effects, or the refusal. */
export type RaceDecision =
  | { readonly ok: true; readonly change: RaceChange | null; readonly effects: RaceEffects }
  | { readonly ok: false; readonly error: ApiError };
