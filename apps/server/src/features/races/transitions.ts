/**
 * The transitions of a race room (races/service.ts, "Start" and "End"): a seat taken, a racer ready, the
 * countdown, the running race, the time limit, a forfeit and the end with its placements and ratings. Each runs inside the room's locked
 * transaction (RaceService.mutate) and re-checks its fact there, so a late or doubled call changes nothing;
 * what must follow the commit (games to resign, progress to publish, the sweeper to wake) is in the `Change`.
 */
import { MAX_RACE_TIME_MS } from '@klondike/protocol';
import { type RatingService, racePool } from '../ratings/service.js';
import { ApiError } from '../../infra/errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { AuthedPlayer } from '../players/players.js';
import type { WireView } from '../../core/rooms/game-rooms.js';
import type { RaceProgress } from './events.js';
import { type RankEntry, allDone, progressOf, progressOfRow, rankRacers, ratedRacer } from './ranking.js';
import { type Change, type RaceRow, type Tx, lockedRow, unchanged } from './repository.js';

/** What the transitions read: the server clock and the service's settings. */
export interface TransitionContext {
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  /** Countdown before the games are created, ms. */
  readonly countdownMs: number;
  /** Time away (no race socket) after which a racer forfeits a running race, ms. */
  readonly awayForfeitMs: number;
  /** Rates rated races when they end; none: no race is ever rated. */
  readonly ratings?: RatingService;
}

/** A racer's game made at the countdown's end: its owner, id and view at version 0. */
export interface StartedGame {
  readonly playerId: string;
  readonly id: string;
  readonly view: WireView;
}

/**
 * Seats `player` (a racer already seated: nothing changes). Bots race only other bots: a room hosted by a
 * bot seats only bots, any other room only people. Errors: `conflict` when the room is full or the race has
 * started or finished; `forbidden` for a bot joining people's room or a person joining a bots' room.
 */
export async function joinChange(
  tx: Tx,
  race: RaceRow,
  player: AuthedPlayer,
  c: TransitionContext,
): Promise<Change<null>> {
  if (race.status === 'finished') throw new ApiError('conflict', 'the race is finished');
  if (race.racers.some((r) => r.playerId === player.id)) return unchanged(null);
  const botRoom = race.racers.find((r) => r.playerId === race.hostId)?.player.bot ?? false;
  if (player.bot !== botRoom)
    throw new ApiError(
      'forbidden',
      player.bot ? 'bots race only other bots' : 'this room is for bots: people race people',
    );
  if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}: no more seats`);
  if (race.racers.length >= race.maxPlayers)
    throw new ApiError('conflict', `the room is full (${race.maxPlayers} racers)`);
  await tx.raceRacer.create({
    data: { raceCode: race.code, playerId: player.id, seat: race.racers.length, joinedAt: new Date(c.now()) },
  });
  return { result: null, changed: true };
}

/**
 * Sets racer `playerId`'s ready flag; when every seat is taken and everyone is ready, the countdown begins.
 * Errors: `forbidden` for a non-racer; `conflict` once the countdown has begun.
 */
export async function readyChange(
  tx: Tx,
  race: RaceRow,
  playerId: string,
  ready: boolean,
  c: TransitionContext,
): Promise<Change<null>> {
  if (!race.racers.some((r) => r.playerId === playerId))
    throw new ApiError('forbidden', 'you are not a racer of this race');
  if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
  await tx.raceRacer.update({
    where: { raceCode_playerId: { raceCode: race.code, playerId } },
    data: { ready },
  });
  const full = race.racers.length === race.maxPlayers;
  if (full && race.racers.every((r) => (r.playerId === playerId ? ready : r.ready)))
    return countdownChange(tx, race.code, c);
  return { result: null, changed: true };
}

/**
 * The host starts the countdown. A rated race starts only with every other seated racer ready (the host's
 * start is the host's own consent; docs/ratings.md "Consent and ranking"); an unrated one needs no ready
 * flag. Errors: `forbidden` unless `playerId` is the host; `conflict` when the race is not in the lobby, has
 * fewer than 2 racers, or is rated and a racer is not ready.
 */
export async function startChange(
  tx: Tx,
  race: RaceRow,
  playerId: string,
  c: TransitionContext,
): Promise<Change<null>> {
  if (race.hostId !== playerId) throw new ApiError('forbidden', 'only the host starts the race');
  if (race.status !== 'lobby') throw new ApiError('conflict', `the race is ${race.status}`);
  if (race.racers.length < 2) throw new ApiError('conflict', 'a race needs at least 2 racers');
  if (race.rated && race.racers.some((r) => r.playerId !== playerId && !r.ready))
    throw new ApiError('conflict', 'a rated race starts only once every racer is ready');
  return countdownChange(tx, race.code, c);
}

/** Begins the countdown: `startsAt` = now + the countdown, everyone ready. */
export async function countdownChange(tx: Tx, code: string, c: TransitionContext): Promise<Change<null>> {
  const startsAt = c.now() + c.countdownMs;
  await tx.race.update({ where: { code }, data: { status: 'countdown', startsAt: new Date(startsAt) } });
  await tx.raceRacer.updateMany({ where: { raceCode: code }, data: { ready: true } });
  return { result: null, changed: true, due: true };
}

/**
 * The countdown's end, once the racers' `games` exist: the race runs (its time limit from `startsAt`; a race
 * without one gets MAX_RACE_TIME_MS, so every race ends), each racer gets their game, and a racer away
 * already — or with no race socket on any node from the start — is away and forfeits at now + the time away.
 * When another run started the race first, nothing changes and `games` are resigned (they are nobody's).
 */
export async function runningChange(
  tx: Tx,
  race: RaceRow,
  games: readonly StartedGame[],
  c: TransitionContext,
): Promise<Change<null>> {
  if (race.status !== 'countdown' || race.racers.some((r) => r.gameId !== null))
    return { ...unchanged(null), resign: games.map((g) => ({ gameId: g.id, owner: g.playerId })) };
  const now = c.now();
  const startsAt = race.startsAt?.getTime() ?? now;
  await tx.race.update({
    where: { code: race.code },
    data: {
      status: 'running',
      endsAt: new Date(startsAt + (race.timeLimitMs ?? MAX_RACE_TIME_MS)),
    },
  });
  for (const r of race.racers) {
    const g = games.find((x) => x.playerId === r.playerId);
    if (!g) continue;
    const away = r.away || !race.presence.some((p) => p.viewer === r.playerId && p.sockets > 0);
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: race.code, playerId: r.playerId } },
      data: {
        gameId: g.id,
        progress: { ...progressOf(g.view, 0) },
        progressVersion: 0,
        away,
        forfeitAt: away ? new Date(now + c.awayForfeitMs) : null,
      },
    });
  }
  return { result: null, changed: true, due: true };
}

/** The time limit (`endsAt`) has passed: the race ends (`timeout`). */
export async function timeUpChange(tx: Tx, race: RaceRow, c: TransitionContext): Promise<Change<null>> {
  if (race.status !== 'running' || race.endsAt === null || race.endsAt.getTime() > c.now())
    return unchanged(null);
  return endChange(tx, race, 'timeout', c);
}

/** A racer away past `forfeitAt` forfeits; the race ends when nobody is left playing. */
export async function forfeitChange(
  tx: Tx,
  race: RaceRow,
  playerId: string,
  c: TransitionContext,
): Promise<Change<null>> {
  const racer = race.racers.find((r) => r.playerId === playerId);
  if (
    race.status !== 'running' ||
    !racer ||
    racer.forfeited ||
    !racer.away ||
    racer.forfeitAt === null ||
    racer.forfeitAt.getTime() > c.now()
  )
    return unchanged(null);
  const before = progressOfRow(racer);
  const progress: RaceProgress | null = before === null ? null : { ...before, status: 'forfeited' };
  await tx.raceRacer.update({
    where: { raceCode_playerId: { raceCode: race.code, playerId } },
    data: {
      forfeited: true,
      forfeitAt: null,
      ...(progress === null ? {} : { progress: { ...progress } }),
    },
  });
  // The game ends first (after the commit), so whoever hears of the forfeit finds it resigned.
  const resign = racer.gameId === null ? [] : [{ gameId: racer.gameId, owner: playerId }];
  const events = progress === null ? [] : [{ playerId, progress }];
  const after = await lockedRow(tx, race.code);
  if (allDone(after)) {
    const end = await endChange(tx, after, 'done', c);
    return { ...end, resign: [...resign, ...(end.resign ?? [])], progress: events };
  }
  return { result: null, changed: true, resign, progress: events };
}

/** Ends the running race for `reason` (`won`, or `done` once every racer has finished). */
export async function finishChange(
  tx: Tx,
  race: RaceRow,
  reason: 'won' | 'done',
  c: TransitionContext,
): Promise<Change<null>> {
  if (race.status !== 'running') return unchanged(null);
  if (reason === 'done' && !allDone(race)) return unchanged(null);
  return endChange(tx, race, reason, c);
}

/**
 * Ends the room: placements, final progress, `finished`. Returns the change, with the racers' games still
 * open to resign after the commit (before anyone hears of the end).
 */
export async function endChange(
  tx: Tx,
  race: RaceRow,
  reason: string,
  c: TransitionContext,
): Promise<Change<null>> {
  const now = c.now();
  const finals = race.racers.map((r) => {
    let p = progressOfRow(r);
    // Racers still playing when the race ends ran out of time, or were overtaken by a winner.
    if (p?.status === 'playing') p = { ...p, status: reason === 'timeout' ? 'timeout' : 'unfinished' };
    return { racer: r, progress: p };
  });
  const entries: RankEntry[] = finals.flatMap((f) =>
    f.progress === null ? [] : [{ playerId: f.racer.playerId, seat: f.racer.seat, progress: f.progress }],
  );
  const places = rankRacers(entries);
  await tx.race.update({
    where: { code: race.code },
    data: { status: 'finished', endedAt: new Date(now), endReason: reason, endsAt: null },
  });
  // A finished room has nobody present (its sockets still hear it, e.g. its rematch).
  await tx.racePresence.deleteMany({ where: { raceCode: race.code } });
  for (const f of finals)
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: race.code, playerId: f.racer.playerId } },
      data: {
        placement: places.get(f.racer.playerId) ?? null,
        progress: f.progress === null ? Prisma.DbNull : { ...f.progress },
        forfeitAt: null,
      },
    });
  await rateIn(
    tx,
    race,
    now,
    finals.flatMap((f) => {
      const placement = places.get(f.racer.playerId);
      return placement === undefined || f.progress === null || !ratedRacer(f.racer.connectedAt, f.progress)
        ? []
        : [{ playerId: f.racer.playerId, placement }];
    }),
    c,
  );
  const resign = finals.flatMap((f) => {
    const s = f.progress?.status;
    return f.racer.gameId !== null &&
      (s === 'unfinished' || s === 'timeout' || s === 'blocked' || s === 'playing')
      ? [{ gameId: f.racer.gameId, owner: f.racer.playerId }]
      : [];
  });
  return { result: null, changed: true, resign };
}

/**
 * A rated race's result moves its racers' race ratings, once: the race is claimed (`ratedAt`) in the
 * transaction that ends it (docs/ratings.md "Races"). `placements` are the rated racers' only (void racers,
 * `ratedRacer`, left out by the caller); fewer than two rate nobody.
 */
export async function rateIn(
  tx: Tx,
  race: { code: string; rated: boolean; preset: string | null },
  now: number,
  placements: { playerId: string; placement: number }[],
  c: TransitionContext,
): Promise<void> {
  const pool = racePool(race.preset);
  if (!race.rated || pool === null || c.ratings === undefined) return;
  const claimed = await tx.race.updateMany({
    where: { code: race.code, ratedAt: null },
    data: { ratedAt: new Date(now) },
  });
  if (claimed.count !== 1) return;
  const day = new Date(now).toISOString().slice(0, 10);
  const moved = await c.ratings.rateRaceIn(tx, pool, day, race.code, placements);
  for (const m of moved)
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: race.code, playerId: m.playerId } },
      data: { ratingBefore: m.before, ratingAfter: m.after },
    });
}

/**
 * An arena racer goes berserk (docs/arenas.md "Berserk") before the countdown ends. Errors: `forbidden` for
 * a non-racer or a race of no arena; `conflict` once the race runs.
 */
export async function berserkChange(tx: Tx, race: RaceRow, playerId: string): Promise<Change<null>> {
  const racer = race.racers.find((r) => r.playerId === playerId);
  if (racer === undefined) throw new ApiError('forbidden', 'you are not a racer of this race');
  if (race.arenaId === null) throw new ApiError('forbidden', 'only an arena race has berserk');
  if (race.status !== 'countdown')
    throw new ApiError('conflict', 'berserk is chosen before the countdown ends');
  if (racer.berserk) return unchanged(null);
  await tx.raceRacer.update({
    where: { raceCode_playerId: { raceCode: race.code, playerId } },
    data: { berserk: true },
  });
  return { result: null, changed: true };
}
