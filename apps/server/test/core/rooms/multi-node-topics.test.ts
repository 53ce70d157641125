/**
 * No echo on the bus (docs/architecture.md "Scale-out"): real server processes on one Postgres schema and
 * one Redis, and a MONITOR tap (test/support/redis-monitor.ts) that sees every PUBLISH Redis is sent under the suite's prefix.
 * - a game followed by sockets on one node only: its moves publish nothing; followed on two nodes: every
 *   frame reaches both sockets, and each node's frames go only to the other node's channel (a node never
 *   hears its own); once the other socket leaves, nothing is published again (no interest left behind);
 * - a node started later learns who follows a game, and its moves reach the socket on the first node;
 * - a race room and an arena the same: nothing published while one node alone has sockets in them, their
 *   frames reach a socket on the other node once it has one.
 * Needs Postgres and Redis (TEST_DATABASE_URL / TEST_REDIS_URL, else the standard local ones).
 */
import { randomBytes } from 'node:crypto';
import {
  ArenaSchema,
  GameResponseSchema,
  LegalMovesResponseSchema,
  PlayerCreatedSchema,
  RaceSchema,
  type ServerFrame,
  StateResponseSchema,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';
import { type PublishTap, type Published, tapPublishes } from '../../support/redis-monitor.js';

const SKIP = MULTI_NODE_SKIP;
/** Longer than the bus's interest settle time (500 ms) and the catch-up grace after it. */
const SETTLE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

describe.skipIf(SKIP !== null)(`no echo on the bus${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const prefix = `echo-${randomBytes(4).toString('hex')}:`;
  let pair: NodePair;
  const sockets: WsClient[] = [];
  let tap: PublishTap | undefined;
  /** Every PUBLISH under the prefix since the tap started. */
  const published = (): Published[] => tap?.published ?? [];
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess | undefined;
  let n = 0;

  /** The frames carried since `from` that name `word`, the interest announcements and race index aside. */
  const about = (word: string, from: number) =>
    published()
      .slice(from)
      .filter(
        (m) =>
          m.channel !== 'bus:interest' && m.channel !== 'races' && `${m.channel} ${m.text}`.includes(word),
      );

  async function api(node: ServerProcess, method: string, path: string, player?: Player, body?: unknown) {
    return nodeApi(node, method, path, player?.token, body, { 'x-forwarded-for': '10.57.0.1' });
  }
  async function newPlayer(node: ServerProcess): Promise<Player> {
    const r = await api(node, 'POST', '/api/players', undefined, { name: `Echo${++n}${prefix.slice(5, 9)}` });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return PlayerCreatedSchema.parse(r.json);
  }
  async function socket(node: ServerProcess, player?: Player): Promise<WsClient> {
    const s = await WsClient.connect(node.ws);
    sockets.push(s);
    if (player) await s.request({ type: 'auth', token: player.token }, (f) => f.type === 'authed');
    return s;
  }
  /** One draw (or recycle) over REST on `node` at `version`; returns the new version. */
  async function draw(node: ServerProcess, id: string, version: number): Promise<number> {
    const legal = LegalMovesResponseSchema.parse(
      (await api(node, 'GET', `/api/games/${id}/legal-moves`)).json,
    );
    const move = legal.moves.find((m: Move) => m.type === 'draw' || m.type === 'recycle');
    const r = await api(node, 'POST', `/api/games/${id}/moves`, undefined, { move, version });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return StateResponseSchema.parse(r.json).version;
  }
  const stateOf =
    (id: string, version?: number) =>
    (f: ServerFrame): boolean =>
      f.type === 'state' && f.gameId === id && (version === undefined || f.version === version);
  const versionsOf = (s: WsClient, id: string) =>
    s.frames.filter(stateOf(id)).map((f) => (f.type === 'state' ? f.version : -1));

  beforeAll(async () => {
    tap = await tapPublishes(TEST_REDIS_URL ?? 'redis://unused', prefix);
    pair = await startPair({ redisPrefix: prefix });
    ({ a, b } = pair);
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    tap?.close();
    await pair?.stop(); // C too, when it was started
  });

  it("a game's frames: none on Redis for one node, to the other node only for two, none once it leaves", async () => {
    const created = await api(a, 'POST', '/api/games', undefined, { dealNumber: 57 });
    expect(created.status).toBe(201);
    const { id } = GameResponseSchema.parse(created.json);
    const onA = await socket(a);
    await onA.request({ type: 'subscribe', gameId: id }, stateOf(id, 0));
    await sleep(SETTLE_MS);

    // Followed on A alone: 10 moves on A, every frame reaches A's socket, nothing reaches Redis.
    let from = published().length;
    let version = 0;
    for (let i = 0; i < 10; i++) version = await draw(a, id, version);
    await onA.waitFor(stateOf(id, 10), 0, 5000);
    await sleep(200);
    expect(about(id, from)).toEqual([]);

    // Followed on A and B: every frame reaches both sockets, in order.
    const onB = await socket(b);
    await onB.request({ type: 'subscribe', gameId: id }, stateOf(id, 10));
    await sleep(SETTLE_MS);
    from = published().length;
    for (let i = 0; i < 5; i++) version = await draw(a, id, version);
    await onB.waitFor(stateOf(id, 15), 0, 5000);
    expect(versionsOf(onB, id)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(versionsOf(onA, id)).toEqual(Array.from({ length: 16 }, (_, v) => v));
    await sleep(200);
    // A's frames went once each to one channel, that only one node listens on...
    const fromA = about(id, from);
    expect(fromA).toHaveLength(5);
    const toB = fromA[0]?.channel ?? '';
    expect(fromA.every((m) => m.channel === toB)).toBe(true);
    const ask = new Redis(TEST_REDIS_URL ?? 'redis://unused');
    expect(await ask.pubsub('NUMSUB', prefix + toB)).toEqual([prefix + toB, 1]);
    ask.disconnect();
    // ... and B's frames go to another: so A's went to B, and A never heard its own.
    from = published().length;
    version = await draw(b, id, version);
    await onA.waitFor(stateOf(id, 16), 0, 5000);
    await sleep(200);
    const fromB = about(id, from);
    expect(fromB).toHaveLength(1);
    expect(fromB[0]?.channel).not.toBe(toB);

    // B's socket leaves: A's frames stop going anywhere.
    onB.send({ type: 'unsubscribe', gameId: id });
    await sleep(SETTLE_MS);
    from = published().length;
    for (let i = 0; i < 3; i++) version = await draw(a, id, version);
    await onA.waitFor(stateOf(id, 19), 0, 5000);
    await sleep(200);
    expect(about(id, from)).toEqual([]);
    expect(versionsOf(onB, id).at(-1)).toBe(16);
  }, 60_000);

  it('a node started later learns who follows a game: its moves reach the socket on A', async () => {
    const created = await api(a, 'POST', '/api/games', undefined, { dealNumber: 58 });
    const { id } = GameResponseSchema.parse(created.json);
    const onA = await socket(a);
    await onA.request({ type: 'subscribe', gameId: id }, stateOf(id, 0));
    await sleep(SETTLE_MS);
    c = await pair.startNode();
    let version = 0;
    for (let i = 0; i < 3; i++) version = await draw(c, id, version);
    await onA.waitFor(stateOf(id, 3), 0, 5000);
    expect(versionsOf(onA, id)).toEqual([0, 1, 2, 3]);
  }, 60_000);

  it("a race room's frames: none on Redis while one node has its sockets, then they reach the other", async () => {
    const host = await newPlayer(a);
    const guest = await newPlayer(a);
    const third = await newPlayer(a);
    const made = await api(a, 'POST', '/api/races', host, { deal: { dealNumber: 57 }, maxPlayers: 3 });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const { code } = RaceSchema.parse(made.json);
    const isRoom = (players: number) => (f: ServerFrame) =>
      f.type === 'race' && f.race.code === code && f.race.racers.length === players;
    const onA = await socket(a, host);
    await onA.request({ type: 'race-subscribe', code }, isRoom(1));
    await sleep(SETTLE_MS);

    let from = published().length;
    expect((await api(a, 'POST', `/api/races/${code}/join`, guest)).status).toBe(200);
    await onA.waitFor(isRoom(2), 0, 5000);
    await sleep(200);
    expect(about(code, from)).toEqual([]);

    const onB = await socket(b, third);
    await onB.request({ type: 'race-subscribe', code }, isRoom(2));
    await sleep(SETTLE_MS);
    from = published().length;
    expect((await api(a, 'POST', `/api/races/${code}/join`, third)).status).toBe(200);
    await onB.waitFor(isRoom(3), 0, 5000);
    expect(about(code, from).length).toBeGreaterThan(0);
  }, 60_000);

  it("an arena's frames: none on Redis while one node has its subscribers, then they reach the other", async () => {
    const maker = await newPlayer(a);
    const startsAt = new Date(Date.now() + 60 * 60_000).toISOString(); // upcoming: no tick pairs anyone
    const made = await api(a, 'POST', '/api/arenas', maker, {
      preset: 'classic-draw1',
      durationMs: 10 * 60_000,
      startsAt,
      rated: false,
      inviteOnly: false,
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const { id } = ArenaSchema.parse(made.json);
    const withPlayers = (count: number) => (f: ServerFrame) =>
      f.type === 'arena' && f.arena.id === id && f.arena.standings.length === count;
    const onA = await socket(a, maker);
    await onA.request({ type: 'arena-subscribe', id }, withPlayers(0));
    await sleep(SETTLE_MS);

    let from = published().length;
    expect((await api(a, 'POST', `/api/arenas/${id}/join`, await newPlayer(a), {})).status).toBe(200);
    await onA.waitFor(withPlayers(1), 0, 5000);
    await sleep(200);
    expect(about(id, from)).toEqual([]);

    const onB = await socket(b);
    await onB.request({ type: 'arena-subscribe', id }, withPlayers(1));
    await sleep(SETTLE_MS);
    from = published().length;
    expect((await api(a, 'POST', `/api/arenas/${id}/join`, await newPlayer(a), {})).status).toBe(200);
    await onB.waitFor(withPlayers(2), 0, 5000);
    expect(about(id, from).length).toBeGreaterThan(0);
  }, 60_000);
});
