/**
 * `pnpm soak:cluster` (not in CI): a simulated midnight on several nodes. Three server processes, built and
 * started as `pnpm start` does, on one Postgres schema (fresh, dropped at the end) and one Redis (a prefix of
 * its own), behind Debian's nginx (least connections as deploy/nginx.conf, WebSocket upgrades, no
 * stickiness). CLUSTER_BOTS bot players (default 1500) speak only to nginx:
 *
 * 1. **Ramp** (CLUSTER_RAMP_S, default 60): the bots arrive one after another; each creates its bot account,
 *    opens a socket (auth), creates a casual Draw 1 game and plays it at a human pace (a move every
 *    CLUSTER_HUMAN_MOVE_MS, default 6000, ±50 %), resigning after CLUSTER_GAME_MOVES moves (default 40) and
 *    starting the next.
 * 2. **Quiet** (CLUSTER_QUIET_S, default 20): everyone at the human pace.
 * 3. **Midnight burst** (CLUSTER_BURST_S, default 120): at one instant every bot opens today's Draw 1 daily
 *    (its one ranked attempt: the `daily-attempt` frame on its socket, answered `daily-opened`, as the web
 *    client does; CLUSTER_OPEN_OVER=rest: `POST /api/daily/:date/classic-draw1/attempt` and a `subscribe`)
 *    and plays it ten times faster
 *    (CLUSTER_BURST_MOVE_MS, default 600), then casual games at that pace. CLUSTER_KILL_AT_S (default 30) into
 *    the burst one node is killed (SIGKILL) and CLUSTER_RESTART_AFTER_S (default 10) later started again on
 *    its port; the bots it held reconnect through nginx, subscribe again and go on by the version rule (a
 *    move whose answer was lost: version unchanged → send it again; moved on → it was applied).
 * 4. **Settle**: the bots stop, the nodes are stopped, and the run checks what was stored.
 *
 * A run that a real UTC midnight would fall inside (it would close the day the bots open), or one starting
 * before the nodes' rollover after a midnight, waits once its nodes are up until both are past.
 *
 * Bots play `draw`/`recycle` (always legal in Draw 1 with unlimited redeals), so every refused move is a fault
 * of the service, not of the bot. A move's answer time is from its frame's send to its `state` frame.
 *
 * Reported: move answers p50/p99/max per phase (the kill window is from the kill to 10 s after the restart),
 * error frames by code, answers lost with the killed node's sockets and how they were settled, the sockets
 * nginx gave each node (opened over the run, reconnections included), daily
 * openings p50/p99; over the burst, moves/s, CPU per move of each node, of Postgres (every `postgres`
 * process) and of nginx, Postgres WAL bytes per move (`pg_current_wal_lsn`), Redis commands and PUBLISHes per
 * move (`INFO commandstats`; Redis serves only this run) and bytes out of Redis per move. Checked (exit 1 on
 * a failure): 0 acknowledged moves lost (every game's stored version ≥ the highest version acknowledged to
 * its bot), every stored game replays from its deal to its stored status, version and move count (the
 * server's own loader, `PrismaGameStore.load` + `replayed`), no error frame but `overloaded` (refused before
 * anything changed; resent after a second). CLUSTER_JSON=path writes the report as JSON.
 *
 * Env: CLUSTER_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test), CLUSTER_REDIS_URL
 * (default redis://127.0.0.1:6379), CLUSTER_PROFILE_DIR (the second node, never killed, or every node when none
 * is killed, writes a V8 CPU profile
 * of its whole run there: where a node's time goes at midnight), and the CLUSTER_* numbers above. Needs
 * /usr/sbin/nginx.
 *
 * This file runs the phases and checks what was stored; its parts are in bench/cluster-soak/: the settings
 * (settings.ts), the server nodes (nodes.ts), the bots (bot.ts) and the CPU, Redis and summary readings
 * (measures.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openDatabase } from '../src/infra/db/database.js';
import { PrismaGameStore } from '../src/infra/db/game-store.js';
import { replayed } from '../src/core/rooms/room.js';
import { freePort } from '../test/support/processes.js';
import { ensureDatabase } from './database.js';
import { httpCall } from './http-call.js';
import { startNginx } from './nginx.js';
import { cpuSecondsOf, idle } from './proc.js';
import {
  ANSWER_TIMEOUT_MS,
  BOTS,
  OPEN_OVER,
  BURST_S,
  DATABASE_URL,
  KILL_AT_S,
  MIDNIGHT,
  NODES,
  QUIET_S,
  RAMP_S,
  REDIS_URL,
  RESTART_AFTER_S,
  ROLLOVER_DELAY_MS,
  sleep,
  waitPastMidnight,
} from './cluster-soak/settings.js';
import { type Node, startNode, stopNode } from './cluster-soak/nodes.js';
import { cpuOfCommand, redisCounters, summary } from './cluster-soak/measures.js';
import { Bot, type Soak } from './cluster-soak/bot.js';

/** What the run measured, as it is printed and written to CLUSTER_JSON. */
interface Report {
  [key: string]: unknown;
}

async function main(): Promise<void> {
  const started = Date.now();
  await ensureDatabase(DATABASE_URL);
  const schema = `cluster_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const prefix = `cluster-${schema}:`;
  const nodeEnv: Record<string, string> = {
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
    WS_FRAMES_PER_SECOND: '0',
    NODE_HEARTBEAT_MS: '1000',
    DAILY_SCHEDULE: 'on', // as in production: its start-up work is waited out (`idle`) before the ramp
    DAILY_ROLLOVER_DELAY_MS: String(ROLLOVER_DELAY_MS),
    ARENA_SCHEDULE: 'off',
    DAILY_ARCHIVE_DAYS: '0',
    DAILY_SOLVE_MS: '500',
    MAINTENANCE_TICK_MS: '0',
    SOLVER_THREADS: '1',
    SOLVER_BACKGROUND_THREADS: '0',
    WEB_DIST: '/nonexistent-web-dist',
  };
  const ports: number[] = [];
  for (let i = 0; i < NODES; i++) ports.push(await freePort());
  const nodes: Node[] = [];
  // With CLUSTER_PROFILE_DIR the second node, never killed, writes a CPU profile there when it stops; every
  // node does when none is killed (the midnight soak).
  const profile = process.env.CLUSTER_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CLUSTER_PROFILE_DIR}`]
    : [];
  const profileOf = (i: number) => (i === 1 || KILL_AT_S < 0 ? profile : []);
  nodes.push(await startNode(ports[0]!, nodeEnv, profileOf(0))); // migrates the schema first
  for (const [i, p] of ports.slice(1).entries()) nodes.push(await startNode(p, nodeEnv, profileOf(i + 1)));
  const proxy = await startNginx(await freePort(), ports, {
    // Per bot: its socket and its requests, each counted twice (client side and upstream side).
    connections: Math.max(1024, BOTS * 8),
    failTimeoutSeconds: 2,
    balance: 'least-conn', // as deploy/nginx.conf
  });
  const redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  console.log(
    `soak:cluster: ${NODES} nodes (:${ports.join(', :')}) behind nginx ${proxy.url}, schema ${schema}, ${BOTS} bots; ` +
      `load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );

  const restErrors: string[] = [];
  const api = async <T>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    refused?: (status: number, code: string) => void,
  ): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const r = await httpCall(proxy.url, method, path, token, body).catch((e: unknown) => e as Error);
      const ok = !(r instanceof Error) && r.status >= 200 && r.status < 300;
      if (!(r instanceof Error) && !ok && refused !== undefined) {
        const code = /"code":"([^"]+)"/.exec(r.text)?.[1] ?? '-';
        refused(r.status, code);
      }
      // A request cut by the node's kill, or nginx's 502 for it: nothing was answered, ask again. A 503
      // (`overloaded`) is asked again after its Retry-After.
      if (r instanceof Error || r.status === 502 || r.status === 503) {
        // By kind of request and reason (ids and dates left out), to be counted in the report.
        const route = path.replace(/\/([A-Za-z0-9_-]{12,}|\d{4}-\d{2}-\d{2})/g, '/…');
        const cause = r instanceof Error && r.cause instanceof Error ? ` (${r.cause.message})` : '';
        restErrors.push(`${method} ${route}: ${r instanceof Error ? r.message + cause : r.status}`);
        if (attempt >= 20) throw new Error(`${method} ${path}: no answer after ${attempt} tries`);
        const retryAfter = r instanceof Error ? NaN : Number(r.headers['retry-after']);
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 500);
        continue;
      }
      if (!ok) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
      return JSON.parse(r.text) as T;
    }
  };

  // A real UTC midnight inside the run would close the day whose daily the bots open (every opening and
  // every move of it then refused `conflict`), and the nodes' rollover after one (DAILY_ROLLOVER_DELAY_MS)
  // would run inside the instant: a run waits until both are past.
  const wait = waitPastMidnight(
    Date.now(),
    (RAMP_S + QUIET_S + BURST_S + 60) * 1000,
    ROLLOVER_DELAY_MS + 10_000,
  );
  if (wait > 0) {
    console.log(
      `soak: waiting ${Math.ceil(wait / 1000)} s, until no UTC midnight or rollover falls inside the run`,
    );
    await sleep(wait);
    await idle(nodes.map((n) => n.child.pid ?? -1));
  }
  // Today's daily, made once before the burst (the daily routes prepare it on first use).
  const today = await api<{ date: string; challenges: { preset: string }[] }>('GET', '/api/daily');
  if (!today.challenges.some((c) => c.preset === 'classic-draw1'))
    throw new Error(`no classic-draw1 daily today: ${JSON.stringify(today.challenges.map((c) => c.preset))}`);
  // The nodes' start-up work (the daily job's: the dailies' pars refined on a solver thread) done before the ramp.
  await idle(nodes.map((n) => n.child.pid ?? -1));

  let reachMidnight = () => {};
  const soak: Soak = {
    proxyUrl: proxy.url,
    today: today.date,
    api,
    phase: 'ramp',
    stop: false,
    burst: false,
    latency: {
      ramp: [],
      quiet: [],
      burst: [],
      'kill-window': [],
      'after-restart': [],
    },
    midnight: new Promise<void>((res) => (reachMidnight = res)),
    openingRefusals: new Map<string, number>(),
    opened: new Map<number, string>(),
    openings: [],
    errorFrames: new Map<string, number>(),
    acked: new Map<string, number>(),
    moves: 0,
    lostAnswers: 0,
    lostApplied: 0,
    lostResent: 0,
    reconnects: 0,
    openSockets: 0,
  };
  const { latency, openings, errorFrames, acked } = soak;
  const failures: string[] = [];

  const bots: Promise<void>[] = [];
  for (let i = 0; i < BOTS; i++) {
    bots.push(
      sleep((i * RAMP_S * 1000) / BOTS).then(() =>
        new Bot(soak, i).run().catch((e: unknown) => {
          failures.push(String(e instanceof Error ? e.message : e));
        }),
      ),
    );
  }
  const sample = (label: string) =>
    console.log(
      `${label.padEnd(14)} t=${((Date.now() - started) / 1000).toFixed(0)}s sockets ${soak.openSockets} moves ${soak.moves} ` +
        `load ${loadavg()[0]?.toFixed(2)}`,
    );
  const ticker = setInterval(() => sample(soak.phase), 10_000);
  await sleep(RAMP_S * 1000);
  soak.phase = 'quiet';
  await sleep(QUIET_S * 1000);

  // Midnight.
  const cpu0 = {
    nodes: nodes.map((n) => cpuSecondsOf(n.child.pid ?? -1)),
    postgres: cpuOfCommand('postgres'),
    nginx: cpuOfCommand('nginx'),
    driver: process.cpuUsage(),
  };
  const [wal0] = (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows;
  const redis0 = await redisCounters(redis);
  const moves0 = soak.moves;
  const burstStart = Date.now();
  soak.phase = 'burst';
  soak.burst = true;
  reachMidnight();
  sample('midnight');
  // The instant itself: the CPU each part spent from midnight until the last bot's opening was answered.
  const instant = (async () => {
    const t0 = Date.now();
    while (soak.openings.length < BOTS && Date.now() - t0 < 60_000) await sleep(20);
    const wallMs = Date.now() - t0;
    const at = {
      nodes: nodes.map((n) => cpuSecondsOf(n.child.pid ?? -1)),
      postgres: cpuOfCommand('postgres'),
      nginx: cpuOfCommand('nginx'),
      driver: process.cpuUsage(cpu0.driver),
    };
    const each = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, soak.openings.length));
    return {
      openings: soak.openings.length,
      wallMs,
      cpuPerOpeningUs: {
        nodes: at.nodes.map((c, k) => each(c - (cpu0.nodes[k] ?? 0))),
        postgres: each(at.postgres - cpu0.postgres),
        nginx: each(at.nginx - cpu0.nginx),
        botDriver: each((at.driver.user + at.driver.system) / 1e6),
      },
    };
  })();
  const victim = nodes[NODES - 1]!;
  let victimCpu = 0;
  if (KILL_AT_S >= 0) {
    await sleep(KILL_AT_S * 1000);
    victimCpu = cpuSecondsOf(victim.child.pid ?? -1);
    soak.phase = 'kill-window';
    await stopNode(victim, 'SIGKILL');
    sample(`killed :${victim.port}`);
    await sleep(RESTART_AFTER_S * 1000);
    const restarted = await startNode(victim.port, nodeEnv);
    nodes[NODES - 1] = restarted;
    sample(`restarted`);
    await sleep(10_000);
    soak.phase = 'after-restart';
  }
  const burstLeft = BURST_S * 1000 - (Date.now() - burstStart);
  if (burstLeft > 0) await sleep(burstLeft);
  const burstSeconds = (Date.now() - burstStart) / 1000;
  const burstMoves = soak.moves - moves0;
  const cpu1 = {
    nodes: nodes.map((n) => cpuSecondsOf(n.child.pid ?? -1)),
    postgres: cpuOfCommand('postgres'),
    nginx: cpuOfCommand('nginx'),
    driver: process.cpuUsage(cpu0.driver),
  };
  const [wal1] = (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows;
  const redis1 = await redisCounters(redis);
  const [walDiff] = (
    await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1, $2) AS bytes', [wal1?.lsn, wal0?.lsn])
  ).rows;
  soak.stop = true;
  clearInterval(ticker);
  sample('stopping');
  await Promise.race([Promise.allSettled(bots), sleep(ANSWER_TIMEOUT_MS + 5000)]);
  // Every acknowledged move is committed before its answer; stop the nodes before reading.
  await Promise.all(nodes.map((n) => stopNode(n, 'SIGTERM')));
  // Which node each socket landed on (nginx's log: `<upstream> GET /api/ws 101`), by port.
  const socketsByNode: Record<string, number> = {};
  for (const line of proxy.log().split('\n')) {
    const m = /^127\.0\.0\.1:(\d+) GET \/api\/ws 101$/.exec(line.trim());
    if (m) socketsByNode[m[1]!] = (socketsByNode[m[1]!] ?? 0) + 1;
  }
  await proxy.stop();

  // What was stored: every acknowledged version, and every game replays to its row.
  const stored = new Map(
    (
      await db.query<{ id: string; version: number; status: string; moves: number }>(
        `SELECT "id", "version", "status", "moves" FROM "${schema}"."Game"`,
      )
    ).rows.map((r) => [r.id, r]),
  );
  let lostAcked = 0;
  for (const [id, version] of acked) {
    const row = stored.get(id);
    if (row === undefined || row.version < version) lostAcked += version - (row?.version ?? 0);
  }
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  const store = new PrismaGameStore(
    database.prisma,
    database.writeMoves,
    database.gameVersion,
    database.query,
  );
  let replayFailures = 0;
  for (const row of stored.values()) {
    try {
      const loaded = await store.load(row.id);
      if (loaded === null) throw new Error('not found');
      const r = replayed(loaded);
      if (r.status !== row.status || r.version !== row.version || r.state.moves !== row.moves)
        throw new Error(
          `replays to ${r.status}/${r.version}/${r.state.moves}, stored ${row.status}/${row.version}/${row.moves}`,
        );
    } catch (e) {
      replayFailures++;
      if (replayFailures <= 5) console.error(`game ${row.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const [entries] = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."Move"`)).rows;
  const [claims] = (await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."DailyAttempt"`))
    .rows;
  const rankedGames = (
    await db.query<{ id: string }>(`SELECT id FROM "${schema}"."Game" WHERE ranked`)
  ).rows.map((r) => r.id);
  // An opening answered 201 whose game is not stored, or a second ranked game of one bot, is lost/extra.
  const rankedSet = new Set(rankedGames);
  const lostOpenings = [...soak.opened.values()].filter((id) => !rankedSet.has(id)).length;
  await database.close();
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.end();
  const stale = await redis.keys(`${prefix}*`);
  if (stale.length > 0) await redis.del(...stale);
  redis.disconnect();

  const perMove = (x: number) => (burstMoves > 0 ? x / burstMoves : NaN);
  const us = (seconds: number) => Math.round(perMove(seconds) * 1e6 * 10) / 10;
  const nodeCpu = cpu1.nodes.map((c, k) =>
    k === NODES - 1 && KILL_AT_S >= 0 ? c + (victimCpu - (cpu0.nodes[k] ?? 0)) : c - (cpu0.nodes[k] ?? 0),
  );
  const report: Report = {
    nodes: NODES,
    bots: BOTS,
    burstSeconds: Math.round(burstSeconds),
    burstMoves,
    burstMovesPerSecond: Math.round(burstMoves / burstSeconds),
    humanMovesPerSecondBefore: Math.round(latency.quiet.length / Math.max(1, QUIET_S)),
    moveAnswerMs: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, summary(v)])),
    openOver: OPEN_OVER,
    dailyOpeningMs: summary(openings),
    midnightInstant: await instant,
    openingsAnswered: soak.opened.size,
    openingRefusals: Object.fromEntries(soak.openingRefusals),
    rankedGamesStored: rankedGames.length,
    attemptClaimsStored: Number(claims?.n ?? 0),
    lostOpenings,
    errorFrames: Object.fromEntries(errorFrames),
    lostAnswers: soak.lostAnswers,
    lostAnswersApplied: soak.lostApplied,
    lostAnswersResent: soak.lostResent,
    reconnects: soak.reconnects,
    socketsByNode: ports.map((p) => socketsByNode[String(p)] ?? 0),
    restRetries: restErrors.length,
    restRetryReasons: Object.fromEntries(
      restErrors.reduce((m, e) => m.set(e, (m.get(e) ?? 0) + 1), new Map<string, number>()),
    ),
    cpuPerMoveUs: {
      nodes: nodeCpu.map((c) => us(c)),
      postgres: us(cpu1.postgres - cpu0.postgres),
      nginx: us(cpu1.nginx - cpu0.nginx),
      botDriver: us((cpu1.driver.user + cpu1.driver.system) / 1e6),
    },
    walBytesPerMove: Math.round(perMove(Number(walDiff?.bytes ?? NaN))),
    redisPerMove: {
      commands: Math.round(perMove(redis1.commands - redis0.commands) * 100) / 100,
      publishes: Math.round(perMove(redis1.publishes - redis0.publishes) * 100) / 100,
      bytesOut: Math.round(perMove(redis1.netOut - redis0.netOut)),
    },
    games: stored.size,
    acknowledgedGames: acked.size,
    storedEntries: Number(entries?.n ?? 0),
    lostAcknowledgedMoves: lostAcked,
    replayFailures,
    botFailures: failures.length,
    load: loadavg().map((x) => +x.toFixed(2)),
    wallSeconds: Math.round((Date.now() - started) / 1000),
  };
  console.log(`soak:${MIDNIGHT ? 'midnight' : 'cluster'} report`, JSON.stringify(report, null, 2));
  if (process.env.CLUSTER_JSON) writeFileSync(process.env.CLUSTER_JSON, JSON.stringify(report, null, 2));
  const unexpected = [...errorFrames.keys()].filter((c) => c !== 'overloaded');
  const problems = [
    lostAcked > 0 ? `${lostAcked} acknowledged moves lost` : '',
    replayFailures > 0 ? `${replayFailures} games do not replay to their row` : '',
    unexpected.length > 0 ? `error frames: ${unexpected.join(', ')}` : '',
    failures.length > 0 ? `${failures.length} bots failed: ${failures.slice(0, 3).join(' | ')}` : '',
    burstMoves === 0 ? 'no move in the burst' : '',
    lostOpenings > 0 ? `${lostOpenings} openings answered 201 are not stored` : '',
    rankedGames.length !== soak.opened.size
      ? `${rankedGames.length} ranked games for ${soak.opened.size} openings`
      : '',
    [...soak.openingRefusals.keys()].some((k) => k !== '503 overloaded' && k !== 'frame overloaded')
      ? `openings refused: ${[...soak.openingRefusals.keys()].join(', ')}`
      : '',
    MIDNIGHT && soak.opened.size !== BOTS ? `${BOTS - soak.opened.size} bots did not open the daily` : '',
  ].filter((p) => p !== '');
  if (problems.length > 0) {
    for (const n of nodes)
      if (n.output.trim() !== '') console.error(`node :${n.port} said:\n${n.output.slice(-3000)}`);
    throw new Error(problems.join('; '));
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
