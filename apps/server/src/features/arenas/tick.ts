/**
 * The decisions of the arena tick (arenas/service.ts, the module comment's steps 1–3), pure: what a
 * finished race of an arena does to its players' scores and places in the pool, which claims went stale,
 * who waits to be paired (and with whom: arenas/pairing.ts), when an arena is over, and which berserk
 * racers' half time is up. repository.ts reads the rows and writes what these decide, inside the tick's
 * locked transaction; nothing here reads a clock or a database.
 */
import { type ArenaWaiting, pairArena } from './pairing.js';
import { addRace } from './scoring.js';

/** A claimed pair whose race was not made within this long goes back to waiting, ms. */
export const CLAIM_TIMEOUT_MS = 60_000;
/** The rating of a player without a race rating in the arena's pool (Glicko scale). */
const NEW_PLAYER_RATING = 1500;

/** An arena player's row as the tick reads and changes it. */
export interface ArenaPlayerState {
  readonly playerId: string;
  readonly points: number;
  readonly games: number;
  readonly wins: number;
  readonly streak: number;
  readonly paused: boolean;
  /** The race they are in; '' while a node makes it (claimed); null when none. */
  readonly raceCode: string | null;
  /** Waiting in the pool since (null: not waiting). */
  readonly waitingSince: Date | null;
  readonly lastOpponent: string | null;
}

/** Fields of an arena player's row a decision sets. */
export type ArenaPlayerFields = Partial<
  Pick<
    ArenaPlayerState,
    'points' | 'games' | 'wins' | 'streak' | 'raceCode' | 'waitingSince' | 'lastOpponent'
  >
>;

/** A write of one arena player's row. */
export interface ArenaPlayerWrite {
  readonly playerId: string;
  readonly set: ArenaPlayerFields;
}

/** A finished race of the arena, claimed for scoring by this tick: its racers' placements and berserk. */
export interface FinishedArenaRace {
  readonly code: string;
  readonly racers: readonly { playerId: string; placement: number | null; berserk: boolean }[];
}

/**
 * Scores `races` (each once): a sole winner (placement 1) wins, berserk counts (arenas/scoring.ts `addRace`),
 * each racer's last opponent is the other racer; a racer whose current race it was is back in the pool from
 * `now` (ms) while the arena `running` and they are not paused, else out of it. Racers not of the arena are
 * skipped. Returns the players after, and the writes in order.
 */
export function scoreRaces(
  players: readonly ArenaPlayerState[],
  races: readonly FinishedArenaRace[],
  running: boolean,
  now: number,
): { players: ArenaPlayerState[]; writes: ArenaPlayerWrite[] } {
  const byId = new Map(players.map((p) => [p.playerId, p]));
  const writes: ArenaPlayerWrite[] = [];
  for (const race of races) {
    const winners = race.racers.filter((r) => r.placement === 1);
    for (const r of race.racers) {
      const p = byId.get(r.playerId);
      if (p === undefined) continue;
      const won = winners.length === 1 && winners[0]?.playerId === r.playerId;
      const next = addRace(p, won, r.berserk);
      const other = race.racers.find((o) => o.playerId !== r.playerId)?.playerId ?? null;
      const current = p.raceCode === race.code;
      const back = running && !p.paused && current;
      const set = {
        points: next.points,
        games: next.games,
        wins: next.wins,
        streak: next.streak,
        lastOpponent: other,
        raceCode: current ? null : p.raceCode,
        waitingSince: back ? new Date(now) : current ? null : p.waitingSince,
      };
      byId.set(r.playerId, { ...p, ...set });
      writes.push({ playerId: r.playerId, set });
    }
  }
  return { players: [...byId.values()], writes };
}

/** Whether `p` holds a claim (a race being made) younger than CLAIM_TIMEOUT_MS at `now` (ms). */
const freshClaim = (p: ArenaPlayerState, now: number): boolean =>
  p.raceCode === '' && (p.waitingSince?.getTime() ?? 0) >= now - CLAIM_TIMEOUT_MS;

/** Claims older than CLAIM_TIMEOUT_MS wait again from `now` (ms): the players after, and the writes. */
export function expireClaims(
  players: readonly ArenaPlayerState[],
  now: number,
): { players: ArenaPlayerState[]; writes: ArenaPlayerWrite[] } {
  const writes: ArenaPlayerWrite[] = [];
  const after = players.map((p) => {
    if (p.raceCode !== '' || freshClaim(p, now)) return p;
    const set = { raceCode: null, waitingSince: new Date(now) };
    writes.push({ playerId: p.playerId, set });
    return { ...p, ...set };
  });
  return { players: after, writes };
}

/** The players waiting to be paired: not paused, in no race, waiting. */
export function waitingPlayers(players: readonly ArenaPlayerState[]): ArenaPlayerState[] {
  return players.filter((p) => !p.paused && p.raceCode === null && p.waitingSince !== null);
}

/**
 * The pairs to claim at `now` (ms) among `players` (arenas/pairing.ts `pairArena`), from their race ratings
 * (`ratings`; absent: a new player's 1500); the players racing (not paused, in a race or a claim) keep last
 * opponents apart.
 */
export function pairsToClaim(
  players: readonly ArenaPlayerState[],
  ratings: ReadonlyMap<string, number>,
  now: number,
): [string, string][] {
  const waiting: ArenaWaiting[] = waitingPlayers(players).map((p) => ({
    playerId: p.playerId,
    points: p.points,
    rating: ratings.get(p.playerId) ?? NEW_PLAYER_RATING,
    lastOpponent: p.lastOpponent,
    waitingSince: p.waitingSince?.getTime() ?? now,
  }));
  const racing = players.filter((p) => !p.paused && p.raceCode !== null).length;
  return pairArena(waiting, now, racing).map(([a, b]) => [a.playerId, b.playerId]);
}

/**
 * Whether the arena is over at `now` (ms): past its end (`running` false), every race of it scored
 * (`unscored` 0) and no race being made for a fresh claim.
 */
export function arenaSettles(
  players: readonly ArenaPlayerState[],
  running: boolean,
  unscored: number,
  now: number,
): boolean {
  return !running && unscored === 0 && !players.some((p) => freshClaim(p, now));
}

/**
 * How many certified deals the pairings of one arena may need soon (races/deal-reserve.ts): one for each
 * two of its players not paused (everyone racing or waiting is paired again), while it runs; none after.
 */
export function pairsAhead(players: readonly ArenaPlayerState[], running: boolean): number {
  return running ? Math.ceil(players.filter((p) => !p.paused).length / 2) : 0;
}

/** A berserk arena racer's running game: its race's start and time limit, and the game's status. */
export interface BerserkGame {
  readonly gameId: string | null;
  readonly playerId: string;
  readonly startsAt: Date | null;
  readonly timeLimitMs: number | null;
  readonly gameStatus: string | null;
}

/** The berserk games still playing whose half of the race's time limit is up at `now` (ms) (docs/arenas.md). */
export function berserkersToStop(
  games: readonly BerserkGame[],
  now: number,
): { gameId: string; playerId: string }[] {
  return games.flatMap((g) =>
    g.gameId !== null &&
    g.startsAt !== null &&
    g.timeLimitMs !== null &&
    g.gameStatus === 'playing' &&
    g.startsAt.getTime() + g.timeLimitMs / 2 <= now
      ? [{ gameId: g.gameId, playerId: g.playerId }]
      : [],
  );
}
