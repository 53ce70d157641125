/**
 * Races across real server processes on one Postgres schema and one Redis (REDIS_URL): a room lives in its
 * rows, so any node runs any room operation, and room events reach sockets on every node.
 * - The host on node A and the guest on node B: create, join, ready, countdown, progress both ways, a win,
 *   results, rematch.
 * - A race runs on A and B; node C starts and changes nothing in it. Then A (which holds the race sweeper's
 *   lease, being the first node up) is killed -9: the racers reconnect to B and play on, no acknowledged
 *   move is lost, the racer who never comes back forfeits on time, and the race ends at its time limit on
 *   time — the timers A ran move to B.
 * Needs Postgres and Redis (TEST_DATABASE_URL / else the standard local ones).
 */
import {
  LegalMovesResponseSchema,
  PlayerCreatedSchema,
  type Race,
  RaceResultsSchema,
  RaceSchema,
  type ServerFrame,
  StateResponseSchema,
} from '@klondike/protocol';
import { PRESETS, dealFromNumber, type Move } from '@klondike/rules';
import { solve } from '@klondike/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClient } from '../../support/helpers.js';
import { MULTI_NODE_SKIP, type NodePair, nodeApi, startPair } from '../../support/multi-node-harness.js';
import { type ServerProcess, killProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
/** Node heartbeat: a node silent for 3 of these (1.5 s) is gone, and the sweeper's lease moves. */
const HEARTBEAT_MS = 500;
const COUNTDOWN_MS = 500;
const AWAY_FORFEIT_MS = 3000;
/** The shortest time limit a race may have (CreateRaceBodySchema). */
const TIME_LIMIT_MS = 60_000;
/** A deal number the solver wins at once under classic-draw1 (race.test.ts). */
const DEAL = 11;

type Node = ServerProcess;
type RaceFrame = Extract<ServerFrame, { type: 'race' }>;
type ProgressFrame = Extract<ServerFrame, { type: 'race-progress' }>;
type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

/** Every node's settings on top of the harness's quiet defaults. */
const ENV = {
  TRUST_PROXY: 'true',
  RATE_LIMIT_MAX: '100000',
  RACE_RATE_MAX: '0',
  NODE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  RACE_COUNTDOWN_MS: String(COUNTDOWN_MS),
  RACE_AWAY_FORFEIT_MS: String(AWAY_FORFEIT_MS),
};

const isRace =
  (pred: (r: Race) => boolean = () => true) =>
  (f: ServerFrame): f is RaceFrame =>
    f.type === 'race' && pred(f.race);
const isProgress =
  (pred: (f: ProgressFrame) => boolean = () => true) =>
  (f: ServerFrame): f is ProgressFrame =>
    f.type === 'race-progress' && pred(f);

function winningLine(): Move[] {
  const deal = dealFromNumber(DEAL);
  if (!deal.ok) throw new Error('bad deal');
  const r = solve(deal.value, PRESETS['classic-draw1'], { timeLimitMs: 10_000 });
  if (r.verdict !== 'won' || r.line === undefined) throw new Error(`deal ${DEAL} not solved: ${r.verdict}`);
  return r.line;
}

describe.skipIf(SKIP !== null)(
  `races across nodes on Postgres + Redis${SKIP ? ` (skipped: ${SKIP})` : ''}`,
  () => {
    let pair: NodePair;
    const sockets: WsClient[] = [];
    let a: Node;
    let b: Node;
    let n = 0;

    /** A request as `player` (when given) from a client address of its own. */
    async function api(node: Node, method: string, path: string, player?: Player, body?: unknown) {
      return nodeApi(node, method, path, player?.token, body, { 'x-forwarded-for': '10.9.0.1' });
    }
    async function newPlayer(node: Node, name: string): Promise<Player> {
      const r = await api(node, 'POST', '/api/players', undefined, {
        name: `${name}${++n}${pair.redisPrefix.slice(5, 9)}`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return PlayerCreatedSchema.parse(r.json);
    }
    async function room(node: Node, code: string, player?: Player): Promise<Race> {
      const r = await api(node, 'GET', `/api/races/${code}`, player);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return RaceSchema.parse(r.json);
    }
    /** A socket on `node`, authed as `player`, subscribed to race `code` (its first race frame received). */
    async function raceSocket(node: Node, code: string, player: Player): Promise<WsClient> {
      const c = await WsClient.connect(node.ws);
      sockets.push(c);
      await c.request({ type: 'auth', token: player.token }, (f) => f.type === 'authed');
      await c.request(
        { type: 'race-subscribe', code },
        isRace((r) => r.code === code),
      );
      return c;
    }
    /** One move over REST on `node` at `version` (a draw, or a recycle once the stock is empty). */
    async function draw(node: Node, player: Player, gameId: string, version: number): Promise<number> {
      const legal = await api(node, 'GET', `/api/games/${gameId}/legal-moves`, player);
      expect(legal.status, JSON.stringify(legal.json)).toBe(200);
      const move = LegalMovesResponseSchema.parse(legal.json).moves.find(
        (m: Move) => m.type === 'draw' || m.type === 'recycle',
      );
      const r = await api(node, 'POST', `/api/games/${gameId}/moves`, player, { move, version });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return StateResponseSchema.parse(r.json).version;
    }

    beforeAll(async () => {
      pair = await startPair({ env: ENV }); // A first: it migrates the schema, and takes the sweeper's lease
      ({ a, b } = pair);
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await pair?.stop();
    });

    it('host on A, guest on B: create, join, ready, countdown, progress both ways, a win, results, rematch', async () => {
      const host = await newPlayer(a, 'Host');
      const guest = await newPlayer(b, 'Guest');
      const made = await api(a, 'POST', '/api/races', host, { deal: { dealNumber: DEAL } });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      const { code } = RaceSchema.parse(made.json);
      const onA = await raceSocket(a, code, host);

      // The guest joins on B; the host's socket on A hears it.
      const joined = await api(b, 'POST', `/api/races/${code}/join`, guest);
      expect(joined.status, JSON.stringify(joined.json)).toBe(200);
      const onB = await raceSocket(b, code, guest);
      await onA.waitFor(
        isRace((r) => r.racers.length === 2 && r.racers[1]?.presence === 'here'),
        0,
        10_000,
      );

      // Ready on both nodes: the countdown begins, then the race runs, on both sockets.
      expect((await api(a, 'POST', `/api/races/${code}/ready`, host, { ready: true })).status).toBe(200);
      await onB.waitFor(
        isRace((r) => r.racers[0]?.ready === true),
        0,
        10_000,
      );
      expect((await api(b, 'POST', `/api/races/${code}/ready`, guest, { ready: true })).status).toBe(200);
      const counting = (await onA.waitFor(
        isRace((r) => r.status === 'countdown'),
        0,
        10_000,
      )) as RaceFrame;
      expect(counting.race.startsAt).not.toBeNull();
      const runA = (await onA.waitFor(
        isRace((r) => r.status === 'running'),
        0,
        10_000,
      )) as RaceFrame;
      const runB = (await onB.waitFor(
        isRace((r) => r.status === 'running'),
        0,
        10_000,
      )) as RaceFrame;
      // A racer's socket counts on whichever node holds it: at the start neither racer is away.
      expect(runA.race.racers.map((r) => r.presence)).toEqual(['here', 'here']);
      const hostGame = runA.race.yourGameId;
      const guestGame = runB.race.yourGameId;
      expect(hostGame).toBeTruthy();
      expect(guestGame).toBeTruthy();
      expect(hostGame).not.toBe(guestGame);
      if (!hostGame || !guestGame) return;

      // Progress both ways: the guest moves on B (heard on A), the host on A (heard on B).
      await draw(b, guest, guestGame, 0);
      await onA.waitFor(
        isProgress((f) => f.playerId === guest.id && f.progress.moves === 1),
        0,
        10_000,
      );
      const line = winningLine();
      let version = 0;
      for (const move of line) {
        const r = await api(a, 'POST', `/api/games/${hostGame}/moves`, host, { move, version });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        version = StateResponseSchema.parse(r.json).version;
      }
      await onB.waitFor(
        isProgress((f) => f.playerId === host.id && f.progress.status === 'won'),
        0,
        10_000,
      );

      // The win ends the race for everyone; results on either node.
      const endB = (await onB.waitFor(
        isRace((r) => r.status === 'finished'),
        0,
        10_000,
      )) as RaceFrame;
      const places = Object.fromEntries(endB.race.racers.map((r) => [r.playerId, r.placement]));
      expect(places).toEqual({ [host.id]: 1, [guest.id]: 2 });
      await onA.waitFor(
        isRace((r) => r.status === 'finished'),
        0,
        10_000,
      );
      const results = await api(b, 'GET', `/api/races/${code}/results`);
      expect(results.status).toBe(200);
      const parsed = RaceResultsSchema.parse(results.json);
      expect(parsed.results.map((r) => [r.playerId, r.progress.status])).toEqual([
        [host.id, 'won'],
        [guest.id, 'unfinished'],
      ]);
      expect(parsed.results[0]?.progress.moves).toBe(line.length);

      // The guest asks for a rematch on B, which seats the guest alone (an invitation): the host's socket on
      // A hears the old room name it, and the host's answer on A takes the other seat.
      const again = await api(b, 'POST', `/api/races/${code}/rematch`, guest);
      expect(again.status, JSON.stringify(again.json)).toBe(201);
      const next = RaceSchema.parse(again.json);
      expect(next.racers.map((r) => [r.playerId, r.host, r.ready])).toEqual([[guest.id, true, false]]);
      await onA.waitFor(
        isRace((r) => r.code === code && r.rematchCode === next.code),
        0,
        10_000,
      );
      const answer = await api(a, 'POST', `/api/races/${code}/rematch`, host);
      expect(answer.status).toBe(200);
      expect(RaceSchema.parse(answer.json).racers.map((r) => [r.playerId, r.host, r.ready])).toEqual([
        [guest.id, true, false],
        [host.id, false, false],
      ]);
      expect((await room(a, next.code, host)).status).toBe('lobby');
    }, 90_000);

    // Last: it kills node A.
    it('node C starting changes nothing; A killed -9: racers go on through B, nothing lost, timers on time', async () => {
      const r1 = await newPlayer(a, 'One');
      const r2 = await newPlayer(a, 'Two');
      const r3 = await newPlayer(b, 'Three');
      const made = await api(a, 'POST', '/api/races', r1, { maxPlayers: 3, timeLimitMs: TIME_LIMIT_MS });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      const { code } = RaceSchema.parse(made.json);
      for (const p of [r2, r3]) expect((await api(b, 'POST', `/api/races/${code}/join`, p)).status).toBe(200);
      // r1 and r3 follow the race on A, r2 on B.
      const s1 = await raceSocket(a, code, r1);
      const s2 = await raceSocket(b, code, r2);
      const s3 = await raceSocket(a, code, r3);
      expect((await api(b, 'POST', `/api/races/${code}/start`, r1)).status).toBe(200);
      const running = (await s1.waitFor(
        isRace((r) => r.status === 'running'),
        0,
        10_000,
      )) as RaceFrame;
      const startsAt = Date.parse(running.race.startsAt ?? '');
      const game1 = running.race.yourGameId ?? '';
      const game2 =
        (
          (await s2.waitFor(
            isRace((r) => r.status === 'running'),
            0,
            10_000,
          )) as RaceFrame
        ).race.yourGameId ?? '';

      // Moves acknowledged by A (r1) and by B (r2).
      let v1 = 0;
      let v2 = 0;
      for (let i = 0; i < 5; i++) v1 = await draw(a, r1, game1, v1);
      for (let i = 0; i < 3; i++) v2 = await draw(b, r2, game2, v2);
      await s3.waitFor(
        isProgress((f) => f.playerId === r2.id && f.progress.moves === 3),
        0,
        10_000,
      );
      await s2.waitFor(
        isProgress((f) => f.playerId === r1.id && f.progress.moves === 5),
        0,
        10_000,
      );

      // Node C starts: the race is exactly as it was (status, presence, progress, timers).
      const before = await room(b, code);
      const c = await pair.startNode();
      try {
        await new Promise((r) => setTimeout(r, 4 * HEARTBEAT_MS));
        const after = await room(c, code);
        const strip = (r: Race) => ({ ...r, serverNow: null });
        expect(strip(after)).toEqual(strip(before));
        expect(after.status).toBe('running');
        expect(after.racers.map((r) => r.presence)).toEqual(['here', 'here', 'here']);
      } finally {
        await killProcess(c);
      }

      // A dies without a word, with the sockets of r1 and r3 and the sweeper's lease.
      await killProcess(a);
      const killedAt = Date.now();

      // r1 comes back through B: the race runs, their game is where A acknowledged it, and play goes on.
      const s1b = await raceSocket(b, code, r1);
      const back = (await s1b.waitFor(
        isRace((r) => r.code === code),
        0,
        10_000,
      )) as RaceFrame;
      expect(back.race.status).toBe('running');
      expect(back.race.yourGameId).toBe(game1);
      const game = await api(b, 'GET', `/api/games/${game1}`, r1);
      expect(game.status).toBe(200);
      expect((game.json as { version: number }).version).toBe(v1);
      for (let i = 0; i < 3; i++) v1 = await draw(b, r1, game1, v1);
      for (let i = 0; i < 2; i++) v2 = await draw(b, r2, game2, v2);
      await s2.waitFor(
        isProgress((f) => f.playerId === r1.id && f.progress.moves === 8),
        0,
        10_000,
      );

      // r3 never comes back: away since A's last beat, forfeited RACE_AWAY_FORFEIT_MS later, by B's sweeper.
      const forfeited = await s2.waitFor(
        isRace((r) => r.racers.find((x) => x.playerId === r3.id)?.presence === 'forfeited'),
        0,
        AWAY_FORFEIT_MS + 10_000,
      );
      const forfeitAfter = Date.now() - killedAt;
      // A's last beat was at most three heartbeats before its death (else it counted as gone already).
      expect(forfeitAfter).toBeGreaterThanOrEqual(AWAY_FORFEIT_MS - 3 * HEARTBEAT_MS);
      expect(forfeitAfter).toBeLessThan(AWAY_FORFEIT_MS + 3 * HEARTBEAT_MS + 3000);
      expect(forfeited.type).toBe('race');

      // The time limit ends the race on time, although A armed it.
      const end = (await s2.waitFor(
        isRace((r) => r.status === 'finished'),
        0,
        TIME_LIMIT_MS + 10_000,
      )) as RaceFrame;
      const endedAt = Date.parse(end.race.endedAt ?? '');
      expect(endedAt - (startsAt + TIME_LIMIT_MS)).toBeGreaterThanOrEqual(0);
      expect(endedAt - (startsAt + TIME_LIMIT_MS)).toBeLessThan(3000);
      const results = RaceResultsSchema.parse((await api(b, 'GET', `/api/races/${code}/results`)).json);
      const by = Object.fromEntries(results.results.map((r) => [r.playerId, r.progress]));
      // Every acknowledged move counted: 5 on A + 3 on B for r1, 3 + 2 for r2.
      expect(by[r1.id]).toMatchObject({ moves: 8, status: 'timeout' });
      expect(by[r2.id]).toMatchObject({ moves: 5, status: 'timeout' });
      expect(by[r3.id]).toMatchObject({ status: 'forfeited' });
      expect(results.results.find((r) => r.playerId === r3.id)?.placement).toBe(3);
      expect(v1).toBe(8);
      expect(v2).toBe(5);
    }, 150_000);
  },
);
