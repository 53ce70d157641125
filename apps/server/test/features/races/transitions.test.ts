/**
 * The race state machine (races/transitions.ts), without a database: every status × event pair of the
 * table, each with the change it writes and the effects after the commit, or the refusal (the `ApiError`
 * code and message a player gets), or nothing (a late or doubled fact). Then the checks that come before
 * the status (who is asking), the facts an accepted event still checks, and a forfeit that ends the race.
 */
import { MAX_RACE_TIME_MS } from '@klondike/protocol';
import { dealFromNumber, newGame, playerView, resolveOptions } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { wireView } from '../../../src/core/rooms/room.js';
import type { RaceProgress } from '../../../src/features/races/events.js';
import { progressOf } from '../../../src/features/races/ranking.js';
import type { RaceRow, RacerRow } from '../../../src/features/races/repository.js';
import {
  ACCEPTS,
  RACE_EVENT_TYPES,
  RACE_STATUSES,
  type RaceDecision,
  type RaceEvent,
  type RaceEventType,
  type RaceRules,
  type RaceStatus,
  type StartedGame,
  decide,
} from '../../../src/features/races/transitions.js';

/** Server time of every decision, ms (2026-01-02 12:00 UTC). */
const NOW = Date.UTC(2026, 0, 2, 12);
const at = (ms: number): Date => new Date(ms);
const RULES: RaceRules = { countdownMs: 5_000, awayForfeitMs: 60_000, rates: true };

const deal = dealFromNumber(1);
if (!deal.ok) throw new Error('deal 1 is a deal');
/** A racer's game at version 0, as the countdown's end makes it. */
const VIEW = wireView(playerView(newGame(deal.value, resolveOptions('classic-draw1')), 0));
const GAMES: StartedGame[] = [
  { playerId: 'h', id: 'g-h2', view: VIEW },
  { playerId: 'p', id: 'g-p2', view: VIEW },
];

/** Host `h` (ahead, blocked) and `p` (behind, still playing) in a running race. */
const H_PROGRESS: RaceProgress = {
  foundationCards: 9,
  faceDown: 4,
  moves: 40,
  score: 90,
  elapsedMs: 9_000,
  status: 'blocked',
};
const P_PROGRESS: RaceProgress = { ...H_PROGRESS, foundationCards: 3, score: 30, status: 'playing' };

/** A racer's row with defaults. */
function racer(playerId: string, seat: number, set: Partial<RacerRow> = {}): RacerRow {
  return {
    raceCode: 'RACE000001',
    playerId,
    seat,
    gameId: null,
    placement: null,
    progress: null,
    progressVersion: null,
    ready: false,
    away: false,
    connectedAt: at(NOW - 20_000),
    forfeitAt: null,
    forfeited: false,
    berserk: false,
    ratingBefore: null,
    ratingAfter: null,
    joinedAt: at(NOW - 30_000),
    player: { name: playerId, bot: false },
    ...set,
  };
}

/**
 * The room in `status`: host `h` and racer `p` of 3 seats, an arena race; `h` has a race socket on live node
 * `n1`, `p` one on dead node `n0`. Counting down: both ready, the countdown over. Running (rated): the time
 * limit passed, `h` blocked, `p` playing and away past their forfeit. Finished: `h` placed first.
 */
function room(status: RaceStatus, set: Partial<RaceRow> = {}): RaceRow {
  const running = status === 'running';
  const racers =
    status === 'lobby'
      ? [racer('h', 0), racer('p', 1)]
      : status === 'countdown'
        ? [racer('h', 0, { ready: true }), racer('p', 1, { ready: true })]
        : running
          ? [
              racer('h', 0, { ready: true, gameId: 'g-h', progress: { ...H_PROGRESS }, progressVersion: 40 }),
              racer('p', 1, {
                ready: true,
                gameId: 'g-p',
                progress: { ...P_PROGRESS },
                progressVersion: 40,
                away: true,
                forfeitAt: at(NOW - 1),
              }),
            ]
          : [
              racer('h', 0, { ready: true, gameId: 'g-h', placement: 1, progress: { ...H_PROGRESS } }),
              racer('p', 1, { ready: true, gameId: 'g-p', placement: 2, progress: { ...P_PROGRESS } }),
            ];
  return {
    code: 'RACE000001',
    status,
    preset: 'classic-draw1',
    options: { ...resolveOptions('classic-draw1') },
    dealKind: 'certified',
    rated: running,
    ratedAt: null,
    knownDeal: false,
    dealNumber: null,
    dealKey: null,
    dealSalt: null,
    dealHash: null,
    arenaId: 'arena-1',
    deal: '',
    maxPlayers: 3,
    timeLimitMs: null,
    hostId: 'h',
    createdAt: at(NOW - 60_000),
    startsAt: status === 'lobby' ? null : at(running ? NOW - 10_000 : NOW - 1),
    endedAt: status === 'finished' ? at(NOW - 5_000) : null,
    endReason: status === 'finished' ? 'timeout' : null,
    rematchCode: null,
    nodeId: 'n1',
    version: 7,
    endsAt: running ? at(NOW - 1) : null,
    racers,
    presence:
      status === 'finished'
        ? []
        : [
            { raceCode: 'RACE000001', nodeId: 'n1', viewer: 'h', sockets: 1 },
            { raceCode: 'RACE000001', nodeId: 'n0', viewer: 'p', sockets: 1 },
          ],
    ...set,
  };
}

/** The event of each kind the table is checked with. */
const EVENTS: Record<RaceEventType, RaceEvent> = {
  join: { type: 'join', player: { id: 'n', bot: false } },
  ready: { type: 'ready', playerId: 'p', ready: true },
  start: { type: 'start', playerId: 'h' },
  countdown: { type: 'countdown' },
  run: { type: 'run', games: GAMES },
  'fail-start': { type: 'fail-start' },
  'time-up': { type: 'time-up' },
  forfeit: { type: 'forfeit', playerId: 'p' },
  finish: { type: 'finish', reason: 'won' },
  abandon: { type: 'abandon' },
  berserk: { type: 'berserk', playerId: 'h' },
  presence: { type: 'presence', nodeId: 'n1', viewer: 'h', sockets: 0 },
  'dead-nodes': {
    type: 'dead-nodes',
    alive: new Set(['n1']),
    lastSeen: new Map([['n0', NOW - 5_000]]),
    readAt: NOW,
  },
};

const ignored: RaceDecision = { ok: true, change: null, effects: {} };
const refused = (code: string, message: string): { code: string; message: string } => ({ code, message });
const countdownBegins: RaceDecision = {
  ok: true,
  change: { racers: [], race: { status: 'countdown', startsAt: at(NOW + 5_000) }, allReady: true },
  effects: { due: true },
};
/** A room of no progress ends for `reason`: nobody placed, nothing to resign, nobody rated. */
const endsEmpty = (reason: string): RaceDecision => ({
  ok: true,
  change: {
    race: { status: 'finished', endedAt: at(NOW), endReason: reason, endsAt: null },
    clearPresence: true,
    racers: ['h', 'p'].map((playerId) => ({
      playerId,
      set: { placement: null, progress: null, forfeitAt: null },
    })),
  },
  effects: { resign: [] },
});
/** The running room ends for `reason`: `h` (blocked) first, `p` (still playing) second, both rated. */
const endsRunning = (reason: string, pStatus: RaceProgress['status']): RaceDecision => ({
  ok: true,
  change: {
    race: { status: 'finished', endedAt: at(NOW), endReason: reason, endsAt: null },
    clearPresence: true,
    racers: [
      { playerId: 'h', set: { placement: 1, progress: H_PROGRESS, forfeitAt: null } },
      { playerId: 'p', set: { placement: 2, progress: { ...P_PROGRESS, status: pStatus }, forfeitAt: null } },
    ],
    rate: {
      pool: 'race-classic-draw1',
      day: '2026-01-02',
      at: at(NOW),
      placements: [
        { playerId: 'h', placement: 1 },
        { playerId: 'p', placement: 2 },
      ],
    },
  },
  effects: {
    resign: [
      { gameId: 'g-h', owner: 'h' },
      { gameId: 'g-p', owner: 'p' },
    ],
  },
});
const resignsNewGames: RaceDecision = {
  ok: true,
  change: null,
  effects: {
    resign: [
      { gameId: 'g-h2', owner: 'h' },
      { gameId: 'g-p2', owner: 'p' },
    ],
  },
};
/** `h`'s last race socket on `n1` goes: away (forfeiting at now + the time away while the race runs). */
const hGoesAway = (forfeitAt: Date | null): RaceDecision => ({
  ok: true,
  change: {
    presence: { nodeId: 'n1', viewer: 'h', sockets: 0 },
    racers: [{ playerId: 'h', set: { away: true, forfeitAt } }],
  },
  effects: { due: forfeitAt !== null },
});
/** Dead node `n0`'s presence goes; `p`, not away yet, is away since `n0`'s last beat. */
const pAwayWithNode: RaceDecision = {
  ok: true,
  change: { presenceOnlyOf: ['n1'], racers: [{ playerId: 'p', set: { away: true, forfeitAt: null } }] },
  effects: { due: false },
};

/** What each status × event gives: a decision, or the refusal's code and message. */
const TABLE: Record<RaceStatus, Record<RaceEventType, RaceDecision | { code: string; message: string }>> = {
  lobby: {
    join: { ok: true, change: { seat: { playerId: 'n', seat: 2, joinedAt: at(NOW) } }, effects: {} },
    ready: { ok: true, change: { racers: [{ playerId: 'p', set: { ready: true } }] }, effects: {} },
    start: countdownBegins,
    countdown: countdownBegins,
    run: resignsNewGames,
    'fail-start': ignored,
    'time-up': ignored,
    forfeit: ignored,
    finish: ignored,
    abandon: endsEmpty('abandoned'),
    berserk: refused('conflict', 'berserk is chosen before the countdown ends'),
    presence: hGoesAway(null),
    'dead-nodes': pAwayWithNode,
  },
  countdown: {
    join: refused('conflict', 'the race is countdown: no more seats'),
    ready: refused('conflict', 'the race is countdown'),
    start: refused('conflict', 'the race is countdown'),
    countdown: ignored,
    run: {
      ok: true,
      change: {
        race: { status: 'running', endsAt: at(NOW - 1 + MAX_RACE_TIME_MS) },
        racers: ['h', 'p'].map((playerId) => ({
          playerId,
          set: {
            gameId: `g-${playerId}2`,
            progress: progressOf(VIEW, 0),
            progressVersion: 0,
            away: false,
            forfeitAt: null,
          },
        })),
      },
      effects: { due: true },
    },
    'fail-start': endsEmpty('interrupted'),
    'time-up': ignored,
    forfeit: ignored,
    finish: ignored,
    abandon: ignored,
    berserk: { ok: true, change: { racers: [{ playerId: 'h', set: { berserk: true } }] }, effects: {} },
    presence: hGoesAway(null),
    'dead-nodes': pAwayWithNode,
  },
  running: {
    join: refused('conflict', 'the race is running: no more seats'),
    ready: refused('conflict', 'the race is running'),
    start: refused('conflict', 'the race is running'),
    countdown: ignored,
    run: resignsNewGames,
    'fail-start': ignored,
    'time-up': endsRunning('timeout', 'timeout'),
    forfeit: {
      ok: true,
      change: {
        race: { status: 'finished', endedAt: at(NOW), endReason: 'done', endsAt: null },
        clearPresence: true,
        racers: [
          {
            playerId: 'p',
            set: { forfeited: true, forfeitAt: null, progress: { ...P_PROGRESS, status: 'forfeited' } },
          },
          { playerId: 'h', set: { placement: 1, progress: H_PROGRESS, forfeitAt: null } },
          {
            playerId: 'p',
            set: { placement: 2, progress: { ...P_PROGRESS, status: 'forfeited' }, forfeitAt: null },
          },
        ],
        rate: {
          pool: 'race-classic-draw1',
          day: '2026-01-02',
          at: at(NOW),
          placements: [
            { playerId: 'h', placement: 1 },
            { playerId: 'p', placement: 2 },
          ],
        },
      },
      effects: {
        // The forfeit's game first, then the games the end leaves open (blocked `h`).
        resign: [
          { gameId: 'g-p', owner: 'p' },
          { gameId: 'g-h', owner: 'h' },
        ],
        progress: [{ playerId: 'p', progress: { ...P_PROGRESS, status: 'forfeited' } }],
      },
    },
    finish: endsRunning('won', 'unfinished'),
    abandon: ignored,
    berserk: refused('conflict', 'berserk is chosen before the countdown ends'),
    presence: hGoesAway(at(NOW + 60_000)),
    // `p` is away already: only the dead node's presence goes.
    'dead-nodes': { ok: true, change: { presenceOnlyOf: ['n1'], racers: [] }, effects: { due: false } },
  },
  finished: {
    join: refused('conflict', 'the race is finished'),
    ready: refused('conflict', 'the race is finished'),
    start: refused('conflict', 'the race is finished'),
    countdown: ignored,
    run: resignsNewGames,
    'fail-start': ignored,
    'time-up': ignored,
    forfeit: ignored,
    finish: ignored,
    abandon: ignored,
    berserk: refused('conflict', 'berserk is chosen before the countdown ends'),
    presence: ignored,
    // Accepted, but a finished room has no presence left to take.
    'dead-nodes': ignored,
  },
};

const CELLS = RACE_STATUSES.flatMap((status) => RACE_EVENT_TYPES.map((type) => ({ status, type })));

describe('the race state machine (races/transitions.ts)', () => {
  it('the table lists every status, and only known events', () => {
    expect(Object.keys(ACCEPTS).sort()).toEqual([...RACE_STATUSES].sort());
    for (const s of RACE_STATUSES) for (const e of ACCEPTS[s]) expect(RACE_EVENT_TYPES).toContain(e);
    expect(CELLS).toHaveLength(4 * 13);
  });

  it.each(CELLS)('$status × $type', ({ status, type }) => {
    const expected = TABLE[status][type];
    const got = decide(room(status), EVENTS[type], NOW, RULES);
    if ('ok' in expected) {
      expect(got).toEqual(expected);
      // Only an event the status accepts changes rows.
      if (got.ok && got.change !== null) expect(ACCEPTS[status].has(type)).toBe(true);
    } else {
      expect(got.ok).toBe(false);
      if (!got.ok) expect({ code: got.error.code, message: got.error.message }).toEqual(expected);
    }
  });

  describe('who is asking comes before the status', () => {
    it.each(RACE_STATUSES)(
      '%s: a non-racer is forbidden to ready or go berserk; a non-host to start',
      (s) => {
        const outsider = (e: RaceEvent): unknown => {
          const d = decide(room(s), e, NOW, RULES);
          return d.ok ? d : { code: d.error.code, message: d.error.message };
        };
        expect(outsider({ type: 'ready', playerId: 'x', ready: true })).toEqual(
          refused('forbidden', 'you are not a racer of this race'),
        );
        expect(outsider({ type: 'berserk', playerId: 'x' })).toEqual(
          refused('forbidden', 'you are not a racer of this race'),
        );
        expect(outsider({ type: 'start', playerId: 'p' })).toEqual(
          refused('forbidden', 'only the host starts the race'),
        );
        const noArena = decide(room(s, { arenaId: null }), { type: 'berserk', playerId: 'h' }, NOW, RULES);
        expect(noArena.ok ? null : [noArena.error.code, noArena.error.message]).toEqual([
          'forbidden',
          'only an arena race has berserk',
        ]);
      },
    );

    it.each(['lobby', 'countdown', 'running'] as const)(
      '%s: a seated racer joining changes nothing; a bot joining people is forbidden',
      (s) => {
        expect(decide(room(s), { type: 'join', player: { id: 'p', bot: false } }, NOW, RULES)).toEqual(
          ignored,
        );
        const bot = decide(room(s), { type: 'join', player: { id: 'b', bot: true } }, NOW, RULES);
        expect(bot.ok ? null : [bot.error.code, bot.error.message]).toEqual([
          'forbidden',
          'bots race only other bots',
        ]);
      },
    );
  });

  describe('an accepted event still checks its facts', () => {
    const error = (d: RaceDecision): unknown => (d.ok ? d : [d.error.code, d.error.message]);

    it('a full lobby refuses a seat; the last ready of a full room begins the countdown', () => {
      const full = room('lobby', { maxPlayers: 2 });
      expect(error(decide(full, EVENTS.join, NOW, RULES))).toEqual([
        'conflict',
        'the room is full (2 racers)',
      ]);
      const hReady = room('lobby', {
        maxPlayers: 2,
        racers: [racer('h', 0, { ready: true }), racer('p', 1)],
      });
      expect(decide(hReady, EVENTS.ready, NOW, RULES)).toEqual({
        ...countdownBegins,
        change: { ...countdownBegins.change, racers: [{ playerId: 'p', set: { ready: true } }] },
      });
    });

    it('a start needs 2 racers, and (rated) every other racer ready', () => {
      const alone = room('lobby', { racers: [racer('h', 0)] });
      expect(error(decide(alone, EVENTS.start, NOW, RULES))).toEqual([
        'conflict',
        'a race needs at least 2 racers',
      ]);
      expect(error(decide(room('lobby', { rated: true }), EVENTS.start, NOW, RULES))).toEqual([
        'conflict',
        'a rated race starts only once every racer is ready',
      ]);
    });

    it('a time limit or a forfeit not yet due, and a `done` with a racer still playing, change nothing', () => {
      expect(decide(room('running', { endsAt: at(NOW + 1) }), EVENTS['time-up'], NOW, RULES)).toEqual(
        ignored,
      );
      const back = room('running');
      const notDue = {
        ...back,
        racers: back.racers.map((r) => (r.playerId === 'p' ? { ...r, forfeitAt: at(NOW + 1) } : r)),
      };
      expect(decide(notDue, EVENTS.forfeit, NOW, RULES)).toEqual(ignored);
      expect(decide(room('running'), { type: 'finish', reason: 'done' }, NOW, RULES)).toEqual(ignored);
    });

    it('a race already given its games resigns the new ones', () => {
      const started = room('countdown', { racers: [racer('h', 0, { gameId: 'g-h' }), racer('p', 1)] });
      expect(decide(started, EVENTS.run, NOW, RULES)).toEqual(resignsNewGames);
    });

    it('a forfeit with a racer still playing does not end the race; without ratings nobody is rated', () => {
      const playing = room('running');
      const hPlaying = {
        ...playing,
        racers: playing.racers.map((r) =>
          r.playerId === 'h' ? { ...r, progress: { ...H_PROGRESS, status: 'playing' } } : r,
        ),
      };
      expect(decide(hPlaying, EVENTS.forfeit, NOW, RULES)).toEqual({
        ok: true,
        change: {
          racers: [
            {
              playerId: 'p',
              set: { forfeited: true, forfeitAt: null, progress: { ...P_PROGRESS, status: 'forfeited' } },
            },
          ],
        },
        effects: {
          resign: [{ gameId: 'g-p', owner: 'p' }],
          progress: [{ playerId: 'p', progress: { ...P_PROGRESS, status: 'forfeited' } }],
        },
      });
      const unrated = decide(room('running'), EVENTS['time-up'], NOW, { ...RULES, rates: false });
      expect(unrated.ok && unrated.change?.rate).toBeUndefined();
    });
  });
});
