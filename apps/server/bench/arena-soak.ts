/**
 * Arena soak: `pnpm soak:arena` (not in CI). Runs the server in this process (buildApp on Postgres, a fresh
 * schema dropped at the end; limits off) with ARENA_SOAK_BOTS bot players (default 200) in one bot arena for
 * ARENA_SOAK_SECONDS (default 600). Each bot has a socket (auth), hears `paired`, subscribes to its race and
 * its game, and plays over the socket: a draw or a recycle about every ARENA_SOAK_MOVE_MS (default 500) until
 * ARENA_SOAK_MOVES moves (default 20), then resigns; when both racers are out the race ends, the arena scores
 * it and pairs the bots again. ARENA_SOAK_WATCHERS of them (default 20) also follow the arena's standings.
 *
 * Prints pairings a minute, the p50/p99 pairing wait (a bot's race end, or its join, to its `paired` frame),
 * the p50/p99 move answer (a `move` frame to its `state` frame), error frames, and checks that every
 * acknowledged action is a row of the move log (rows ≥ acknowledged, per game). Fails on a lost move.
 * It also reports, p50/p99/max, the arena's heartbeat (docs/arenas.md "The tick"):
 *  - result to standings: a race's `endedAt` (server time; the server runs in this process, on the same
 *    clock) to the first `arena` frame a watcher receives whose standings count that race for a racer (the
 *    racer's k-th finished race against the k-th increase of their `games`); the first race's figure apart;
 *  - re-pairing when an opponent waits: for each new pair, from the moment the later of the two became free
 *    (its race's `endedAt`) to the `paired` frame, counted only when the earlier one was already waiting
 *    then (a race end, not a join) and the two were not each other's last opponent (an immediate rematch
 *    waits on purpose: arenas/pairing.ts);
 *  - re-pairing from a race's end to the next `paired`, whoever waits.
 * Every bot stays subscribed to its race until the race's `finished` frame, so every end is seen.
 *
 * Env: ARENA_SOAK_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { ensureDatabase } from './database.js';
import { rawText } from './server-bench/format.js';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number ≥ 0`);
  return v;
};
const BOTS = env('ARENA_SOAK_BOTS', 200);
const SECONDS = env('ARENA_SOAK_SECONDS', 600);
const MOVE_MS = env('ARENA_SOAK_MOVE_MS', 500);
const MOVES = env('ARENA_SOAK_MOVES', 20);
const WATCHERS = env('ARENA_SOAK_WATCHERS', 20);
const BASE_URL = process.env.ARENA_SOAK_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

async function main(): Promise<void> {
  const schema = `arena_soak_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(BASE_URL);
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  const app = await buildApp({
    env: {},
    config: {
      databaseUrl: url.toString(),
      dataDir: 'memory://',
      logLevel: 'warn',
      rateLimitMax: 0,
      wsFramesPerSecond: 0,
      playerCreateRateMax: 0,
      raceRateMax: 0,
      dailySchedule: false,
      dailyArchiveDays: 0,
      solverThreads: 1,
      maintenanceTickMs: 0,
      raceCountdownMs: 1000,
      raceCertifyMs: 500,
      webDist: '/nonexistent',
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('not listening');
  const base = `http://127.0.0.1:${addr.port}`;
  const wsUrl = `ws://127.0.0.1:${addr.port}/api/ws`;
  const http = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!r.ok) throw new Error(`${method} ${path} → ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };

  const bots: { id: string; token: string }[] = [];
  for (let i = 0; i < BOTS; i++)
    bots.push(
      await http('POST', '/api/players', undefined, { name: `soakbot${i}${schema.slice(-4)}`, bot: true }),
    );
  const arena = await http<{ id: string }>('POST', '/api/arenas', bots[0]?.token, {
    preset: 'classic-draw1',
    durationMs: Math.max(5 * 60_000, (SECONDS + 60) * 1000),
    name: 'Soak arena',
  });

  let stop = false;
  const waits: number[] = [];
  /** Each bot's finished arena races' `endedAt` (ms), in order. */
  const finishes = new Map<string, number[]>();
  /** When a watcher first saw each bot's standings line count 1, 2, … races (ms), in order. */
  const counted = new Map<string, number[]>();
  /** Each pairing by race code: the bots in it, when each became free (ms), how, and when told (ms). */
  const pairsByCode = new Map<
    string,
    { playerId: string; freeAt: number; fromRace: boolean; lastOpponent: string | null; pairedAt: number }[]
  >();
  /** Race end (`endedAt`) to the next `paired` frame, ms, whoever waits. */
  const repairWaits: number[] = [];
  const answers: number[] = [];
  let pairings = 0;
  let errors = 0;
  let arenaFrames = 0;
  /** Acknowledged actions by game id (the version of the last state frame answering our own frame). */
  const acked = new Map<string, number>();

  async function bot(i: number, me: { id: string; token: string }): Promise<void> {
    const ws = new WebSocket(wsUrl);
    await new Promise<void>((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    const listeners = new Set<(f: ServerFrame) => void>();
    ws.on('message', (data) => {
      const f = ServerFrameSchema.parse(JSON.parse(rawText(data)));
      if (f.type === 'error') errors++;
      if (f.type === 'arena') {
        arenaFrames++;
        const at = Date.now();
        for (const line of f.arena.standings) {
          const seen = counted.get(line.playerId) ?? [];
          while (seen.length < line.games) seen.push(at);
          counted.set(line.playerId, seen);
        }
      }
      for (const l of [...listeners]) l(f);
    });
    const next = (pred: (f: ServerFrame) => boolean, timeoutMs = 120_000) =>
      new Promise<ServerFrame | null>((resolve) => {
        const t = setTimeout(() => {
          listeners.delete(l);
          resolve(null);
        }, timeoutMs);
        const l = (f: ServerFrame) => {
          if (!pred(f)) return;
          clearTimeout(t);
          listeners.delete(l);
          resolve(f);
        };
        listeners.add(l);
      });
    const authed = next((f) => f.type === 'authed');
    ws.send(JSON.stringify({ type: 'auth', token: me.token }));
    await authed;
    if (i < WATCHERS) ws.send(JSON.stringify({ type: 'arena-subscribe', id: arena.id }));
    let waitingSince = Date.now();
    let freeFromRace = false;
    let lastOpponent: string | null = null;
    const firstPaired = next((f) => f.type === 'paired');
    await http('POST', `/api/arenas/${arena.id}/join`, me.token, {});
    let paired = await firstPaired;
    while (!stop) {
      if (paired === null || paired.type !== 'paired') {
        paired = await next((f) => f.type === 'paired');
        continue;
      }
      const pairedAt = Date.now();
      waits.push(pairedAt - waitingSince);
      if (freeFromRace) repairWaits.push(pairedAt - waitingSince);
      pairings++;
      const code = paired.code;
      const pair = pairsByCode.get(code) ?? [];
      pair.push({ playerId: me.id, freeAt: waitingSince, fromRace: freeFromRace, lastOpponent, pairedAt });
      pairsByCode.set(code, pair);
      const running = next((f) => f.type === 'race' && f.race.code === code && f.race.yourGameId !== null);
      // Heard before the race-subscribe is sent, so the finish is never missed; resolved below.
      const finished = next((f) => f.type === 'race' && f.race.code === code && f.race.status === 'finished');
      ws.send(JSON.stringify({ type: 'race-subscribe', code }));
      /** Waits for the race's end; the bot is free from its `endedAt` and waits for its next pairing. */
      const waitForEnd = async (): Promise<void> => {
        const nextPair = next((f) => f.type === 'paired', 120_000);
        const end = await finished;
        ws.send(JSON.stringify({ type: 'race-unsubscribe', code }));
        if (end !== null && end.type === 'race' && end.race.endedAt !== null) {
          waitingSince = Date.parse(end.race.endedAt);
          freeFromRace = true;
          lastOpponent = end.race.racers.find((x) => x.playerId !== me.id)?.playerId ?? null;
          const mine = finishes.get(me.id) ?? [];
          mine.push(waitingSince);
          finishes.set(me.id, mine);
        } else {
          waitingSince = Date.now();
          freeFromRace = false;
        }
        paired = await nextPair;
      };
      const r = await running;
      if (r === null || r.type !== 'race' || r.race.yourGameId === null) {
        await waitForEnd();
        continue;
      }
      const gameId = r.race.yourGameId;
      const sub = next((f) => f.type === 'state' && f.gameId === gameId && f.cause === 'subscribe');
      ws.send(JSON.stringify({ type: 'subscribe', gameId }));
      const s = await sub;
      if (s === null || s.type !== 'state') continue;
      let version = s.version;
      let stock = s.view.stock.count;
      for (let n = 1; n <= MOVES + 1 && !stop; n++) {
        await sleep(MOVE_MS * (0.5 + Math.random()));
        const rid = `${i}-${gameId}-${n}`;
        const frame =
          n > MOVES
            ? { type: 'resign', gameId, version, requestId: rid }
            : {
                type: 'move',
                gameId,
                move: stock > 0 ? { type: 'draw' } : { type: 'recycle' },
                version,
                requestId: rid,
              };
        const answer = next((f) => 'requestId' in f && f.requestId === rid, 30_000);
        const t0 = performance.now();
        ws.send(JSON.stringify(frame));
        const f = await answer;
        answers.push(performance.now() - t0);
        if (f?.type !== 'state') break;
        version = f.version;
        stock = f.view.stock.count;
        acked.set(gameId, version);
        if (f.view.status !== 'playing') break;
      }
      ws.send(JSON.stringify({ type: 'unsubscribe', gameId }));
      // Waiting again from the race's end (when the other racer is out too).
      await waitForEnd();
    }
    ws.close();
  }

  const start = Date.now();
  console.log(
    `arena soak: ${BOTS} bots for ${SECONDS} s, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const running = bots.map((b, i) => sleep((i * 3000) / BOTS).then(() => bot(i, b)));
  const report = setInterval(() => {
    console.log(
      JSON.stringify({
        t: Math.round((Date.now() - start) / 1000),
        pairings: pairings / 2,
        moves: answers.length,
        errors,
        p99MoveMs: pct(answers.slice(-2000), 99),
        load: loadavg()[0]?.toFixed(2),
      }),
    );
  }, 30_000);
  await sleep(SECONDS * 1000);
  stop = true;
  clearInterval(report);
  await Promise.race([Promise.allSettled(running), sleep(15_000)]);
  await sleep(2000);

  // Every acknowledged action is a stored row of its game.
  const games = [...acked.keys()];
  const stored = new Map<string, number>();
  for (let at = 0; at < games.length; at += 500) {
    const rows = await app.prisma.game.findMany({
      where: { id: { in: games.slice(at, at + 500) } },
      select: { id: true, version: true },
    });
    for (const g of rows) stored.set(g.id, g.version);
  }
  let lost = 0;
  for (const [id, v] of acked) if ((stored.get(id) ?? 0) < v) lost++;
  const rowsStored = [...stored.values()].reduce((a, b) => a + b, 0);
  const rowsAcked = [...acked.values()].reduce((a, b) => a + b, 0);
  await app.close();
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();

  // Result to standings: each bot's k-th race end against the k-th count of its standings line.
  const toStandings: number[] = [];
  let firstToStandings: number | null = null;
  let firstEnd = Infinity;
  for (const [id, ends] of finishes)
    for (const [k, end] of ends.entries()) {
      const seen = counted.get(id)?.[k];
      if (seen === undefined) continue;
      toStandings.push(seen - end);
      if (end < firstEnd) {
        firstEnd = end;
        firstToStandings = seen - end;
      }
    }
  // Re-pairing when an opponent waits: from the later of the two becoming free, the other already waiting.
  const repairWithOpponent: number[] = [];
  for (const pair of pairsByCode.values()) {
    const [a, b] = pair;
    if (a === undefined || b === undefined) continue;
    const [early, late] = a.freeAt <= b.freeAt ? [a, b] : [b, a];
    if (!late.fromRace || !early.fromRace) continue;
    if (a.lastOpponent === b.playerId || b.lastOpponent === a.playerId) continue;
    repairWithOpponent.push(Math.min(a.pairedAt, b.pairedAt) - late.freeAt);
  }
  const spread = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: pct(xs, 100) });
  const minutes = SECONDS / 60;
  const out = {
    bots: BOTS,
    seconds: SECONDS,
    pairingsPerMinute: +(pairings / 2 / minutes).toFixed(1),
    pairingWaitMs: { p50: pct(waits, 50), p99: pct(waits, 99) },
    resultToStandingsMs: { ...spread(toStandings), first: firstToStandings },
    repairWhenOpponentWaitsMs: spread(repairWithOpponent),
    repairFromRaceEndMs: spread(repairWaits),
    moveAnswerMs: { p50: pct(answers, 50)?.toFixed(1), p99: pct(answers, 99)?.toFixed(1) },
    actionsAnswered: answers.length,
    errors,
    arenaFrames,
    games: games.length,
    actionsAcknowledged: rowsAcked,
    actionsStored: rowsStored,
    gamesWithLostActions: lost,
    load: loadavg().map((x) => +x.toFixed(2)),
  };
  console.log('arena soak report', JSON.stringify(out));
  if (lost > 0) throw new Error(`${lost} games lost acknowledged actions`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
