/**
 * Quick pairing across two server processes on one Postgres schema and one Redis (docs/ratings.md "Quick
 * race"): the pool lives in the database, so players waiting on different nodes are paired with each
 * other, a socket on one node hears the `paired` made on the other, and players entering on both nodes at
 * once are each paired at most once. Needs Postgres and Redis (TEST_DATABASE_URL / else the standard local ones).
 */
import { PairingStatusSchema, PlayerCreatedSchema, RaceSchema, type PairingStatus } from '@klondike/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

const ENV = { RATE_LIMIT_MAX: '100000', RACE_COUNTDOWN_MS: '60000' };

describe.skipIf(SKIP !== null)(
  `pairing across nodes on Postgres + Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    const sockets: WsClient[] = [];
    let a: ServerProcess;
    let b: ServerProcess;
    let n = 0;

    async function api(node: ServerProcess, method: string, path: string, player?: Player, body?: unknown) {
      return nodeApi(node, method, path, player?.token, body);
    }
    async function newPlayer(node: ServerProcess, name: string): Promise<Player> {
      const r = await api(node, 'POST', '/api/players', undefined, {
        name: `${name}${++n}${pair.redisPrefix.slice(5, 9)}`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return PlayerCreatedSchema.parse(r.json);
    }
    async function enter(node: ServerProcess, player: Player): Promise<PairingStatus> {
      const r = await api(node, 'POST', '/api/pairing', player, { preset: 'classic-draw1' });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return PairingStatusSchema.parse(r.json);
    }
    async function statusOf(node: ServerProcess, player: Player): Promise<PairingStatus> {
      const r = await api(node, 'GET', '/api/pairing', player);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return PairingStatusSchema.parse(r.json);
    }

    beforeAll(async () => {
      pair = await startPair({ env: ENV });
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await pair?.stop();
    });

    it('one waits on A, one enters on B: one room for both, and the socket on A hears `paired`', async () => {
      const first = await newPlayer(a, 'Qa');
      const second = await newPlayer(b, 'Qb');
      const onA = await WsClient.connect(a.ws);
      sockets.push(onA);
      await onA.request({ type: 'auth', token: first.token }, (f) => f.type === 'authed');

      expect((await enter(a, first)).status).toBe('waiting');
      const made = await enter(b, second);
      expect(made.status).toBe('paired');
      if (made.status !== 'paired') return;
      expect(await onA.waitFor((f) => f.type === 'paired', 0, 10_000)).toEqual({
        type: 'paired',
        code: made.code,
      });
      expect(await statusOf(a, first)).toEqual(made);
      const room = await api(a, 'GET', `/api/races/${made.code}`, first);
      const race = RaceSchema.parse(room.json);
      expect(race.racers.map((r) => r.playerId).sort()).toEqual([first.id, second.id].sort());
      expect(race).toMatchObject({ status: 'countdown', rated: true, maxPlayers: 2 });
    });

    it('eight players entering on both nodes at once: four rooms, nobody in two', async () => {
      const players = await Promise.all(
        Array.from({ length: 8 }, (_, i) => newPlayer(i % 2 === 0 ? a : b, 'Qm')),
      );
      await Promise.all(players.map((p, i) => enter(i % 2 === 0 ? b : a, p)));
      // Whoever is still waiting is paired by a later tick (every second on a node that saw them wait).
      const codes = new Map<string, string>();
      for (let round = 0; round < 30 && codes.size < players.length; round++) {
        for (const [i, p] of players.entries()) {
          if (codes.has(p.id)) continue;
          const s = await statusOf(i % 2 === 0 ? a : b, p);
          if (s.status === 'paired') codes.set(p.id, s.code);
        }
        if (codes.size < players.length) await new Promise((r) => setTimeout(r, 500));
      }
      expect(codes.size).toBe(players.length);
      const rooms = new Map<string, string[]>();
      for (const [id, code] of codes) rooms.set(code, [...(rooms.get(code) ?? []), id]);
      expect(rooms.size).toBe(4);
      for (const [code, ids] of rooms) {
        const race = RaceSchema.parse((await api(a, 'GET', `/api/races/${code}`)).json);
        expect(race.racers.map((r) => r.playerId).sort()).toEqual([...ids].sort());
      }
    }, 60_000);
  },
);
