/**
 * The race state machine (races/service.ts, "Start" and "End"), pure: `decide(race, event, now, rules)` reads
 * a room's rows as locked in its transaction and answers what the event changes — `{ change, effects }` —
 * or refuses it with the `ApiError` the player gets. It writes nothing: the repository applies the change in
 * the same locked transaction (repository.ts `RaceRepository.mutate`), and the service runs the effects
 * after the commit (games to resign, progress to publish, the sweeper to wake).
 *
 * `ACCEPTS` is the table of status × event: which events each status takes. An event a status does not
 * take is refused (a player's request: `conflict`, or `forbidden` for who they are) or ignored (a timer or
 * a late fact: a doubled timer or a race already moved on changes nothing), as `refuse` says per event. An
 * accepted event may still refuse on its own facts (a full room, a non-host's start) or change nothing (a
 * forfeit not yet due).
 */
import { MAX_RACE_TIME_MS } from '@klondike/protocol';
import { racePool } from '../ratings/service.js';
import { ApiError } from '../../infra/errors.js';
import type {
  RaceChange,
  RaceDecision,
  RaceEffects,
  RaceStatus,
  RacerFields,
  RatingClaim,
} from './change.js';
import type { WireView } from '../../core/rooms/game-rooms.js';
import type { RaceProgress } from './events.js';
import { type RankEntry, allDone, progressOf, progressOfRow, rankRacers, ratedRacer } from './ranking.js';
import type { RaceRow, RacerRow } from './repository.js';
import { SPECTATORS } from './snapshot.js';

export type {
  RaceChange,
  RaceDecision,
  RaceEffects,
  RaceFields,
  RaceStatus,
  RacerFields,
  RatingClaim,
} from './change.js';

/** A racer's game made at the countdown's end: its owner, id and view at version 0. */
export interface StartedGame {
  readonly playerId: string;
  readonly id: string;
  readonly view: WireView;
}

/** What can happen to a room: a player's request, a timer fact come due, or a fact of the cluster. */
export type RaceEvent =
  /** A player takes a seat (POST /api/races/:code/join). */
  | { readonly type: 'join'; readonly player: { readonly id: string; readonly bot: boolean } }
  /** A racer sets their ready flag. */
  | { readonly type: 'ready'; readonly playerId: string; readonly ready: boolean }
  /** The host starts the countdown. */
  | { readonly type: 'start'; readonly playerId: string }
  /** A paired race (quick pairing, arenas) begins its countdown at once, without a ready step. */
  | { readonly type: 'countdown' }
  /** The countdown's end, once the racers' `games` exist: the race runs. */
  | { readonly type: 'run'; readonly games: readonly StartedGame[] }
  /** The countdown's end failed (a game could not be made): the race ends `interrupted`. */
  | { readonly type: 'fail-start' }
  /** The time limit (`endsAt`) may have passed. */
  | { readonly type: 'time-up' }
  /** Racer `playerId`'s `forfeitAt` may have passed. */
  | { readonly type: 'forfeit'; readonly playerId: string }
  /** A racer won (`won`) or reached a final status (`done`: the race ends once every racer has one). */
  | { readonly type: 'finish'; readonly reason: 'won' | 'done' }
  /** A lobby nobody started is closed (`abandoned`). */
  | { readonly type: 'abandon' }
  /** An arena racer goes berserk (docs/arenas.md "Berserk"). */
  | { readonly type: 'berserk'; readonly playerId: string }
  /** Node `nodeId` now holds `sockets` race sockets of `viewer` (a racer's id, or SPECTATORS). */
  | { readonly type: 'presence'; readonly nodeId: string; readonly viewer: string; readonly sockets: number }
  /**
   * The nodes alive (`alive`) and when each dead node last beat (`lastSeen`, ms), read at `readAt` (ms): the
   * presence of dead nodes goes.
   */
  | {
      readonly type: 'dead-nodes';
      readonly alive: ReadonlySet<string>;
      readonly lastSeen: ReadonlyMap<string, number>;
      readonly readAt: number;
    };

/** The kinds of event. */
export type RaceEventType = RaceEvent['type'];

/** Every kind of event, in the order of `RaceEvent`. */
export const RACE_EVENT_TYPES: readonly RaceEventType[] = [
  'join',
  'ready',
  'start',
  'countdown',
  'run',
  'fail-start',
  'time-up',
  'forfeit',
  'finish',
  'abandon',
  'berserk',
  'presence',
  'dead-nodes',
];

/** Every status, in the order a room goes through them. */
export const RACE_STATUSES: readonly RaceStatus[] = ['lobby', 'countdown', 'running', 'finished'];

/** The table of status × event: the events each status accepts (any other is refused or ignored). */
export const ACCEPTS: Readonly<Record<RaceStatus, ReadonlySet<RaceEventType>>> = {
  lobby: new Set(['join', 'ready', 'start', 'countdown', 'abandon', 'presence', 'dead-nodes']),
  countdown: new Set(['run', 'fail-start', 'berserk', 'presence', 'dead-nodes']),
  running: new Set(['time-up', 'forfeit', 'finish', 'presence', 'dead-nodes']),
  finished: new Set(['dead-nodes']),
};

/** What the decisions read besides the room: the service's settings. */
export interface RaceRules {
  /** Countdown before the games are created, ms. */
  readonly countdownMs: number;
  /** Time away (no race socket) after which a racer forfeits a running race, ms. */
  readonly awayForfeitMs: number;
  /** Whether rated races are rated when they end (false: no ratings service). */
  readonly rates: boolean;
}

/** Nothing changes (a late or doubled fact), with `effects` (none by default). */
export const ignored = (effects: RaceEffects = {}): RaceDecision => ({ ok: true, change: null, effects });
/** `change` is written, `effects` follow. */
const changes = (change: RaceChange, effects: RaceEffects = {}): RaceDecision => ({
  ok: true,
  change,
  effects,
});
/** The event is refused with ApiError(`code`, `message`). */
const refused = (code: 'conflict' | 'forbidden', message: string): RaceDecision => ({
  ok: false,
  error: new ApiError(code, message),
});

/** A decision of an event in a given status, as the table's cell. */
type Handler<E extends RaceEventType> = (
  race: RaceRow,
  event: Extract<RaceEvent, { type: E }>,
  now: number,
  rules: RaceRules,
) => RaceDecision;

/** Whether `player` may not sit with this room's racers: bots race only bots, people only people. */
function wrongKind(race: RaceRow, bot: boolean): RaceDecision | null {
  const botRoom = race.racers.find((r) => r.playerId === race.hostId)?.player.bot ?? false;
  if (bot === botRoom) return null;
  return refused(
    'forbidden',
    bot ? 'bots race only other bots' : 'this room is for bots: people race people',
  );
}

const isRacer = (race: RaceRow, playerId: string): boolean =>
  race.racers.some((r) => r.playerId === playerId);

/**
 * What an event a status does not accept gives: a refusal, or nothing (a late fact). Player requests check
 * who is asking first, as they did before the table (so a non-racer hears `forbidden` in any status).
 */
const refuse: { readonly [E in RaceEventType]: Handler<E> } = {
  join: (race, e) => {
    if (race.status === 'finished') return refused('conflict', 'the race is finished');
    if (isRacer(race, e.player.id)) return ignored();
    return wrongKind(race, e.player.bot) ?? refused('conflict', `the race is ${race.status}: no more seats`);
  },
  ready: (race) => refused('conflict', `the race is ${race.status}`),
  start: (race) => refused('conflict', `the race is ${race.status}`),
  countdown: () => ignored(),
  // Another run started the race first: these games are nobody's.
  run: (_race, e) => ignored({ resign: e.games.map((g) => ({ gameId: g.id, owner: g.playerId })) }),
  'fail-start': () => ignored(),
  'time-up': () => ignored(),
  forfeit: () => ignored(),
  finish: () => ignored(),
  abandon: () => ignored(),
  berserk: () => refused('conflict', 'berserk is chosen before the countdown ends'),
  presence: () => ignored(),
  'dead-nodes': () => ignored(),
};

/** Checks that come before the status (who is asking), as `RaceService` made them: a refusal, or null. */
const before: {
  readonly [E in RaceEventType]?: (race: RaceRow, e: Extract<RaceEvent, { type: E }>) => RaceDecision | null;
} = {
  ready: (race, e) =>
    isRacer(race, e.playerId) ? null : refused('forbidden', 'you are not a racer of this race'),
  start: (race, e) =>
    race.hostId === e.playerId ? null : refused('forbidden', 'only the host starts the race'),
  berserk: (race, e) => {
    if (!isRacer(race, e.playerId)) return refused('forbidden', 'you are not a racer of this race');
    if (race.arenaId === null) return refused('forbidden', 'only an arena race has berserk');
    return null;
  },
};

/** The countdown begins: `startsAt` = now + the countdown, everyone ready. */
function countdown(now: number, rules: RaceRules, racers: RaceChange['racers'] = []): RaceDecision {
  return changes(
    { racers, race: { status: 'countdown', startsAt: new Date(now + rules.countdownMs) }, allReady: true },
    { due: true },
  );
}

/** What an event a status accepts gives (its own facts may still refuse it or change nothing). */
const accept: { readonly [E in RaceEventType]: Handler<E> } = {
  join: (race, e, now) => {
    if (isRacer(race, e.player.id)) return ignored();
    const wrong = wrongKind(race, e.player.bot);
    if (wrong !== null) return wrong;
    if (race.racers.length >= race.maxPlayers)
      return refused('conflict', `the room is full (${race.maxPlayers} racers)`);
    return changes({ seat: { playerId: e.player.id, seat: race.racers.length, joinedAt: new Date(now) } });
  },
  ready: (race, e, now, rules) => {
    const racers = [{ playerId: e.playerId, set: { ready: e.ready } }];
    const full = race.racers.length === race.maxPlayers;
    if (full && race.racers.every((r) => (r.playerId === e.playerId ? e.ready : r.ready)))
      return countdown(now, rules, racers);
    return changes({ racers });
  },
  start: (race, e, now, rules) => {
    if (race.racers.length < 2) return refused('conflict', 'a race needs at least 2 racers');
    if (race.rated && race.racers.some((r) => r.playerId !== e.playerId && !r.ready))
      return refused('conflict', 'a rated race starts only once every racer is ready');
    return countdown(now, rules);
  },
  countdown: (_race, _e, now, rules) => countdown(now, rules),
  run: (race, e, now, rules) => {
    if (race.racers.some((r) => r.gameId !== null)) return refuse.run(race, e, now, rules);
    // The time limit runs from `startsAt`; a race without one gets MAX_RACE_TIME_MS, so every race ends.
    const startsAt = race.startsAt?.getTime() ?? now;
    const racers = race.racers.flatMap((r) => {
      const g = e.games.find((x) => x.playerId === r.playerId);
      if (!g) return [];
      // Away already, or with no race socket on any node from the start: away, forfeits at now + time away.
      const away = r.away || !race.presence.some((p) => p.viewer === r.playerId && p.sockets > 0);
      const set: RacerFields = {
        gameId: g.id,
        progress: progressOf(g.view, 0),
        progressVersion: 0,
        away,
        forfeitAt: away ? new Date(now + rules.awayForfeitMs) : null,
      };
      return [{ playerId: r.playerId, set }];
    });
    const endsAt = new Date(startsAt + (race.timeLimitMs ?? MAX_RACE_TIME_MS));
    return changes({ race: { status: 'running', endsAt }, racers }, { due: true });
  },
  'fail-start': (race, _e, now, rules) => end(race, 'interrupted', now, rules),
  'time-up': (race, _e, now, rules) =>
    race.endsAt === null || race.endsAt.getTime() > now ? ignored() : end(race, 'timeout', now, rules),
  forfeit: (race, e, now, rules) => {
    const racer = race.racers.find((r) => r.playerId === e.playerId);
    if (
      !racer ||
      racer.forfeited ||
      !racer.away ||
      racer.forfeitAt === null ||
      racer.forfeitAt.getTime() > now
    )
      return ignored();
    const was = progressOfRow(racer);
    const progress: RaceProgress | null = was === null ? null : { ...was, status: 'forfeited' };
    const set: RacerFields = { forfeited: true, forfeitAt: null, ...(progress === null ? {} : { progress }) };
    const racers = [{ playerId: e.playerId, set }];
    // The game ends first (after the commit), so whoever hears of the forfeit finds it resigned.
    const resign = racer.gameId === null ? [] : [{ gameId: racer.gameId, owner: e.playerId }];
    const events = progress === null ? [] : [{ playerId: e.playerId, progress }];
    const after: RaceRow = {
      ...race,
      racers: race.racers.map((r) => (r.playerId === e.playerId ? withFields(r, set) : r)),
    };
    if (!allDone(after)) return changes({ racers }, { resign, progress: events });
    const ended = end(after, 'done', now, rules);
    if (!ended.ok || ended.change === null) return ended;
    return changes(
      { ...ended.change, racers: [...racers, ...(ended.change.racers ?? [])] },
      { resign: [...resign, ...(ended.effects.resign ?? [])], progress: events },
    );
  },
  finish: (race, e, now, rules) =>
    e.reason === 'done' && !allDone(race) ? ignored() : end(race, e.reason, now, rules),
  abandon: (race, _e, now, rules) => end(race, 'abandoned', now, rules),
  berserk: (race, e) => {
    const racer = race.racers.find((r) => r.playerId === e.playerId);
    if (racer?.berserk !== false) return ignored();
    return changes({ racers: [{ playerId: e.playerId, set: { berserk: true } }] });
  },
  presence: (race, e, now, rules) => {
    const { nodeId, viewer, sockets } = e;
    const presence = { nodeId, viewer, sockets };
    const racer = viewer === SPECTATORS ? undefined : race.racers.find((r) => r.playerId === viewer);
    // A racer's first race socket in the room is recorded (`connectedAt`: such a racer is rated).
    if (racer && sockets > 0 && (racer.away || racer.forfeitAt !== null || racer.connectedAt === null)) {
      const set: RacerFields = {
        away: false,
        forfeitAt: null,
        connectedAt: racer.connectedAt ?? new Date(now),
      };
      return changes({ presence, racers: [{ playerId: viewer, set }] }, { due: racer.forfeitAt !== null });
    }
    if (racer && sockets === 0 && !racer.away) {
      const elsewhere = race.presence.some((p) => p.viewer === viewer && p.nodeId !== nodeId);
      if (!elsewhere) {
        const forfeits = race.status === 'running' && !racer.forfeited;
        const set: RacerFields = {
          away: true,
          forfeitAt: forfeits ? new Date(now + rules.awayForfeitMs) : null,
        };
        return changes({ presence, racers: [{ playerId: viewer, set }] }, { due: forfeits });
      }
    }
    return changes({ presence }, { due: false });
  },
  'dead-nodes': (race, e, _now, rules) => {
    const gone = race.presence.filter((p) => !e.alive.has(p.nodeId));
    if (gone.length === 0) return ignored();
    let due = false;
    const racers = race.racers.flatMap((racer) => {
      const had = gone.filter((p) => p.viewer === racer.playerId);
      if (had.length === 0 || racer.away) return [];
      if (race.presence.some((p) => p.viewer === racer.playerId && e.alive.has(p.nodeId))) return [];
      // Away since the last beat of the node that held their socket.
      const since = Math.max(...had.map((p) => e.lastSeen.get(p.nodeId) ?? e.readAt));
      const forfeits = race.status === 'running' && !racer.forfeited;
      due ||= forfeits;
      const set: RacerFields = {
        away: true,
        forfeitAt: forfeits ? new Date(since + rules.awayForfeitMs) : null,
      };
      return [{ playerId: racer.playerId, set }];
    });
    return changes({ presenceOnlyOf: [...e.alive], racers }, { due });
  },
};

/**
 * What `event` does to `race` (its rows as read under the row lock) at server time `now` (ms): the change to
 * write and the effects to run after the commit, or the refusal (see the module comment and `ACCEPTS`).
 */
export function decide(race: RaceRow, event: RaceEvent, now: number, rules: RaceRules): RaceDecision {
  const status: RaceStatus = race.status;
  const run = <E extends RaceEventType>(e: Extract<RaceEvent, { type: E }>): RaceDecision => {
    const who = before[e.type]?.(race, e);
    if (who) return who;
    const cell = (ACCEPTS[status].has(e.type) ? accept[e.type] : refuse[e.type]) as Handler<E>;
    return cell(race, e, now, rules);
  };
  return run(event);
}

/**
 * Ends the room for `reason`: placements, final progress (racers still playing ran out of time, or were
 * overtaken by a winner), `finished`, no presence, the rating of a rated race; the racers' games still open
 * are resigned after the commit (before anyone hears of the end).
 */
function end(race: RaceRow, reason: string, now: number, rules: RaceRules): RaceDecision {
  const finals = race.racers.map((r) => {
    let p = progressOfRow(r);
    if (p?.status === 'playing') p = { ...p, status: reason === 'timeout' ? 'timeout' : 'unfinished' };
    return { racer: r, progress: p };
  });
  const entries: RankEntry[] = finals.flatMap((f) =>
    f.progress === null ? [] : [{ playerId: f.racer.playerId, seat: f.racer.seat, progress: f.progress }],
  );
  const places = rankRacers(entries);
  const racers = finals.map((f) => ({
    playerId: f.racer.playerId,
    set: { placement: places.get(f.racer.playerId) ?? null, progress: f.progress, forfeitAt: null },
  }));
  const rate = ratingClaim(
    race,
    now,
    finals.flatMap((f) => {
      const placement = places.get(f.racer.playerId);
      return placement === undefined || f.progress === null || !ratedRacer(f.racer.connectedAt, f.progress)
        ? []
        : [{ playerId: f.racer.playerId, placement }];
    }),
    rules,
  );
  const resign = finals.flatMap((f) => {
    const s = f.progress?.status;
    return f.racer.gameId !== null &&
      (s === 'unfinished' || s === 'timeout' || s === 'blocked' || s === 'playing')
      ? [{ gameId: f.racer.gameId, owner: f.racer.playerId }]
      : [];
  });
  return changes(
    {
      race: { status: 'finished', endedAt: new Date(now), endReason: reason, endsAt: null },
      clearPresence: true,
      racers,
      ...(rate === undefined ? {} : { rate }),
    },
    { resign },
  );
}

/**
 * A rated race's result to rate (docs/ratings.md "Races"), or undefined for an unrated race, a race of no
 * rating pool, or a server without ratings. `placements`: the rated racers' only (void racers left out).
 */
export function ratingClaim(
  race: { readonly rated: boolean; readonly preset: string | null },
  now: number,
  placements: readonly { playerId: string; placement: number }[],
  rules: RaceRules,
): RatingClaim | undefined {
  const pool = racePool(race.preset);
  if (!race.rated || pool === null || !rules.rates) return undefined;
  return { pool, day: new Date(now).toISOString().slice(0, 10), at: new Date(now), placements };
}

/**
 * One node alone, at start-up: a previous run's unfinished race ends `interrupted`, its racers placed by
 * `entries` (their games as stored), only those in `rated` (not void) rated. The repository claims the race
 * (still unfinished) before writing the rest.
 */
export function interruptedChange(
  race: { readonly rated: boolean; readonly preset: string | null },
  entries: readonly RankEntry[],
  rated: ReadonlySet<string>,
  now: number,
  rules: RaceRules,
): RaceChange {
  const places = rankRacers(entries);
  const rate = ratingClaim(
    race,
    now,
    entries.flatMap((e) => {
      const placement = places.get(e.playerId);
      return placement === undefined || !rated.has(e.playerId) ? [] : [{ playerId: e.playerId, placement }];
    }),
    rules,
  );
  return {
    race: { status: 'finished', endedAt: new Date(now), endReason: 'interrupted', endsAt: null },
    clearPresence: true,
    racers: entries.map((e) => ({
      playerId: e.playerId,
      set: { placement: places.get(e.playerId) ?? null, progress: e.progress, forfeitAt: null },
    })),
    ...(rate === undefined ? {} : { rate }),
  };
}

/** Racer row `r` with `set` applied (in memory, to decide on the room as the change leaves it). */
function withFields(r: RacerRow, set: RacerFields): RacerRow {
  const { progress, ...rest } = set;
  return {
    ...r,
    ...rest,
    ...(progress === undefined ? {} : { progress: progress === null ? null : { ...progress } }),
  };
}
