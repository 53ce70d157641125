/**
 * Rating benchmark (`pnpm bench:ratings`): settling one closed day of RATINGS_PLAYERS (default 100 000)
 * synthetic ranked results into the daily pool (docs/ratings.md), on Postgres (RATINGS_DATABASE_URL,
 * default postgresql://postgres@127.0.0.1:5432/klondike_test, in a schema of its own that is dropped after).
 * The day is rated twice over: once from new ratings, once more a day later with every player rated (the
 * steady state). Reports wall time, the server process's CPU time and its peak RSS while rating.
 */
import { availableParallelism, cpus } from 'node:os';
import { buildApp } from '../src/app.js';
import { dropSchema, testSchemaName, withSchema } from '../test/support/helpers.js';
import { envNumber } from './settings.js';

const N = envNumber('RATINGS_PLAYERS', 100_000);
const BASE = process.env.RATINGS_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const url = withSchema(BASE, testSchemaName());
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;

const app = await buildApp({
  env: {},
  config: {
    logLevel: 'warn',
    databaseUrl: url,
    dataDir: 'memory://',
    rateLimitMax: 0,
    dailySchedule: false,
    webDist: '/nonexistent-web-dist',
    solverThreads: 1,
  },
});
try {
  const prisma = app.prisma;
  const t0 = performance.now();
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Player" (id, name, "nameKey", "createdAt", bot)
     SELECT 'p' || i, 'Player ' || i, 'player ' || i, TIMESTAMP '2025-01-01', false
       FROM generate_series(1, $1::int) AS i`,
    N,
  );
  for (const date of ['2025-02-01', '2025-02-02']) {
    const [inserted] = await prisma.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO "DailyDeal" (date, preset, deal, candidate, par, line)
       VALUES ($1, 'classic-draw1', '', 0, 100, '[]'::jsonb) RETURNING id`,
      date,
    );
    if (inserted === undefined) throw new Error(`no daily inserted for ${date}`);
    const { id } = inserted;
    await prisma.$executeRawUnsafe(
      `INSERT INTO "Game" (id, options, deal, status, "updatedAt", "playerId", "dailyId", ranked)
       SELECT $2 || '-' || i, '{}'::jsonb, '', 'won', now(), 'p' || i, $1::int, true
         FROM generate_series(1, $3::int) AS i`,
      id,
      date,
      N,
    );
    // A third of the field wins (faster is better), the rest resign with scores spread out.
    await prisma.$executeRawUnsafe(
      `INSERT INTO "DailyResult" ("dailyId", "playerId", "gameId", status, won, score, "timeMs", moves, "finishedAt")
       SELECT $1::int, 'p' || i, $2 || '-' || i,
              (CASE WHEN i % 3 = 0 THEN 'won' ELSE 'resigned' END)::"ResultStatus", i % 3 = 0,
              ((i::bigint * 7919) % 700)::int, 60000 + ((i::bigint * 104729) % 900000)::int, 80 + (i * 31) % 120, TIMESTAMP '2025-02-01 12:00'
         FROM generate_series(1, $3::int) AS i`,
      id,
      date,
      N,
    );
  }
  console.log(
    `${N.toLocaleString('en')} results a day stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const days = await prisma.dailyDeal.findMany({ orderBy: { date: 'asc' } });
  console.log(
    `${availableParallelism()} cores, ${cpus()[0]?.model ?? '?'}, node ${process.version}; Postgres at ${new URL(BASE).host}`,
  );
  console.log(`RSS before rating: ${mb(process.memoryUsage().rss)}`);
  console.log('| day | ratings before | wall | CPU (this process) | peak RSS |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [i, d] of days.entries()) {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    const done = await app.ratings.rateDaily(d.id, d.date, d.preset);
    const wall = performance.now() - w0;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (!done) throw new Error(`${d.date} was not rated`);
    console.log(
      `| ${d.date} | ${i === 0 ? 'none (all new)' : 'every player rated'} | ${(wall / 1000).toFixed(2)} s | ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s | ${mb(peak)} |`,
    );
  }
  const rated = await prisma.rating.count();
  if (rated !== N) throw new Error(`${rated} ratings, expected ${N}`);
} finally {
  await app.close();
  await dropSchema(url);
}
