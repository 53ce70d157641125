/**
 * The arena's heartbeat across two server processes on one Postgres schema and one Redis (docs/arenas.md
 * "The tick"), each ticking periodically only once an hour (ARENA_TICK_MS): an arena made and paired on A
 * whose race ends on B (its racers resign there) is in the standings a watcher on A receives, and the player
 * waiting on B is paired again, within seconds instead of the hour: the node that committed the end ticked
 * at once. How soon, under load, is a benchmark's figure (`pnpm soak:arena`: standings p99 ≤ 1 s, re-pairing
 * ≤ 2 s, docs/benchmarks.md), not this test's: a wall-clock bound here fails on a busy machine. Needs
 * Postgres and Redis (TEST_DATABASE_URL / else the standard local ones).
 */
import { ArenaSchema, PlayerCreatedSchema, RaceSchema, type Arena, type Race } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

describe.skipIf(MULTI_NODE_SKIP !== null)(
  `arena heartbeat across nodes on Postgres + Redis${MULTI_NODE_SKIP ? ` (skipped: ${MULTI_NODE_SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    const sockets: WsClient[] = [];
    let a: ServerProcess;
    let b: ServerProcess;
    let n = 0;

    async function api(node: ServerProcess, method: string, path: string, player?: Player, body?: unknown) {
      return nodeApi(node, method, path, player?.token, body);
    }
    async function newPlayer(node: ServerProcess): Promise<Player> {
      const r = await api(node, 'POST', '/api/players', undefined, {
        name: `Hb${++n}${pair.redisPrefix.slice(5, 9)}`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return PlayerCreatedSchema.parse(r.json);
    }
    async function arenaOf(node: ServerProcess, id: string, as: Player): Promise<Arena> {
      const r = await api(node, 'GET', `/api/arenas/${id}`, as);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return ArenaSchema.parse(r.json);
    }
    /** Polls `get` until `done` holds, for at most `ms`. */
    async function until<T>(get: () => Promise<T>, done: (t: T) => boolean, ms: number): Promise<T> {
      const end = Date.now() + ms;
      for (;;) {
        const t = await get();
        if (done(t)) return t;
        if (Date.now() > end) throw new Error(`not reached in ${ms} ms: ${JSON.stringify(t)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    async function socket(node: ServerProcess, as?: Player): Promise<WsClient> {
      const s = await WsClient.connect(node.ws);
      sockets.push(s);
      if (as) await s.request({ type: 'auth', token: as.token }, (f) => f.type === 'authed');
      return s;
    }

    beforeAll(async () => {
      const env = { RATE_LIMIT_MAX: '100000', RACE_COUNTDOWN_MS: '100', ARENA_TICK_MS: '3600000' };
      pair = await startPair({ env, together: true });
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await pair?.stop();
    });

    it('a race made on A and ended on B: in A’s standings and the player waiting on B paired, without the hourly tick', async () => {
      const players = [await newPlayer(a), await newPlayer(a), await newPlayer(a), await newPlayer(a)];
      const fifth = await newPlayer(b);
      const made = await api(a, 'POST', '/api/arenas', players[0], {
        preset: 'classic-draw1',
        durationMs: 30 * 60_000,
      });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      const id = ArenaSchema.parse(made.json).id;
      const watcher = await socket(a);
      await watcher.request({ type: 'arena-subscribe', id }, (f) => f.type === 'arena');
      for (const p of players)
        expect((await api(a, 'POST', `/api/arenas/${id}/join`, p, {})).status).toBe(200);
      const codes = new Map<string, string>();
      for (const p of players) {
        const seen = await until(
          () => arenaOf(a, id, p),
          (x) => x.me?.pairedRace != null,
          30_000,
        );
        codes.set(p.id, seen.me?.pairedRace as string);
      }
      expect(new Set(codes.values()).size).toBe(2);
      const onB = await socket(b, fifth);
      expect((await api(b, 'POST', `/api/arenas/${id}/join`, fifth, {})).status).toBe(200);

      // Race X's racers resign on B once their games exist.
      const code = codes.get(players[0]?.id as string) as string;
      const racers = players.filter((p) => codes.get(p.id) === code);
      const games: [Player, string][] = [];
      for (const p of racers) {
        const race = await until(
          async () => RaceSchema.parse((await api(b, 'GET', `/api/races/${code}`, p)).json),
          (r: Race) => r.yourGameId !== null,
          30_000,
        );
        games.push([p, race.yourGameId as string]);
      }
      const from = watcher.frames.length;
      const pairedFrom = onB.frames.length;
      for (const [p, gameId] of games) {
        const r = await api(b, 'POST', `/api/games/${gameId}/resign`, p, {});
        expect([200, 422], JSON.stringify(r.json)).toContain(r.status);
      }
      await until(
        async () => RaceSchema.parse((await api(b, 'GET', `/api/races/${code}`)).json),
        (r: Race) => r.status === 'finished',
        10_000,
      );
      // Both within 10 s of the race's end, where the periodic tick would come after an hour.
      await watcher.waitFor(
        (f) =>
          f.type === 'arena' &&
          racers.every((p) => f.arena.standings.find((s) => s.playerId === p.id)?.games === 1),
        from,
        10_000,
      );
      const paired = await onB.waitFor((f) => f.type === 'paired', pairedFrom, 10_000);
      const next = paired.type === 'paired' ? paired.code : '';
      const race = RaceSchema.parse((await api(a, 'GET', `/api/races/${next}`)).json);
      const ids = race.racers.map((r) => r.playerId);
      expect(ids).toContain(fifth.id);
      expect(racers.map((p) => p.id)).toContain(ids.find((x) => x !== fifth.id));
    }, 120_000);
  },
);
