/**
 * Open data benchmark (`pnpm bench:export`): making and storing the export file (docs/data.md) of one closed
 * day of EXPORT_GAMES (default 100 000) synthetic ranked attempts, on Postgres (EXPORT_DATABASE_URL, default
 * postgresql://postgres@127.0.0.1:5432/klondike_test, in a schema of its own that is dropped after).
 *
 * The day has both daily presets (attempts alternate between them), a bot for every 50th player, and
 * 20 … 159 logged moves a game (about 90 on average: a ranked draw-1 win takes 100 or more). The rows are
 * written by SQL alone (generate_series), then the server's own `storeMissingExports` makes the file.
 * Reports wall time, this process's CPU time, its peak RSS while exporting (sampled every 20 ms), the
 * file's size and bytes a game, and the same for serving the file once (GET /api/exports/:date).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { PRESETS, dealFromKey, formatDeal } from '@klondike/rules';
import { buildApp } from '../src/app.js';
import { storeMissingExports } from '../src/features/daily/open-data.js';
import { ExportRepository } from '../src/features/daily/export-repository.js';
import { dropSchema, testSchemaName, withSchema } from '../test/support/helpers.js';
import { ensureDatabase } from './database.js';
import { envNumber } from './settings.js';

const N = envNumber('EXPORT_GAMES', 100_000);
const BASE = process.env.EXPORT_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const DATE = '2025-02-01';
const url = withSchema(BASE, testSchemaName());
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;

/** Measures `run`: wall and CPU time (s) and the peak RSS (bytes) of this process while it runs. */
async function measure<T>(
  run: () => Promise<T>,
): Promise<{ value: T; wall: number; cpu: number; peak: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  try {
    const value = await run();
    const cpu = process.cpuUsage(cpu0);
    return { value, wall: (performance.now() - w0) / 1000, cpu: (cpu.user + cpu.system) / 1e6, peak };
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
}

await ensureDatabase(BASE);
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
  // Ids as the server makes them look (16 URL-safe characters), derived from i so that every table agrees.
  const player = `substr(md5('p' || i), 1, 16)`;
  const game = `substr(md5('g' || i), 1, 16)`;
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Player" (id, name, "nameKey", "createdAt", bot)
     SELECT ${player}, 'Player ' || i, 'player ' || i, TIMESTAMP '2025-01-01', i % 50 = 0
       FROM generate_series(1, $1::int) AS i`,
    N,
  );
  const dailies: number[] = [];
  for (const preset of ['classic-draw1', 'classic-draw3'] as const) {
    const deal = dealFromKey(randomBytes(32));
    if (!deal.ok) throw new Error('no deal');
    const [row] = await prisma.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO "DailyDeal" (date, preset, deal, "dealKey", candidate, par, line)
       VALUES ($1, $2, $3, $4, 0, 100, '[]'::jsonb) RETURNING id`,
      DATE,
      preset,
      formatDeal(deal.value),
      randomBytes(32).toString('hex'),
    );
    if (!row) throw new Error('no daily');
    dailies.push(row.id);
    const options = JSON.stringify({ ...PRESETS[preset], undo: false, hints: false });
    const parity = dailies.length - 1; // draw1: even i, draw3: odd i
    // Attempts start through the day; m = 20 + (37 i mod 140) moves, then won (a third), resigned or unfinished.
    await prisma.$executeRawUnsafe(
      `INSERT INTO "Game" (id, preset, options, deal, status, "createdAt", "startedAt", "updatedAt", "playerId", "dailyId", ranked)
       SELECT ${game}, $2, $3::jsonb, $4,
              (CASE WHEN i % 3 = 0 THEN 'won' WHEN i % 3 = 1 THEN 'resigned' ELSE 'playing' END)::"GameStatus",
              TIMESTAMP '${DATE}' + (i % 86000) * INTERVAL '1 second',
              TIMESTAMP '${DATE}' + (i % 86000) * INTERVAL '1 second', now(), ${player}, $1::int, true
         FROM generate_series(1, $5::int) AS i WHERE i % 2 = $6`,
      row.id,
      preset,
      options,
      formatDeal(deal.value),
      N,
      parity,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO "DailyResult" ("dailyId", "playerId", "gameId", status, won, score, "timeMs", moves, "finishedAt")
       SELECT $1::int, ${player}, ${game},
              (CASE WHEN i % 3 = 0 THEN 'won' WHEN i % 3 = 1 THEN 'resigned' ELSE 'unfinished' END)::"ResultStatus",
              i % 3 = 0, ((i::bigint * 7919) % 700)::int, (20 + (i * 37) % 140) * 2500,
              20 + (i * 37) % 140, TIMESTAMP '${DATE}' + (i % 86000) * INTERVAL '1 second'
         FROM generate_series(1, $2::int) AS i WHERE i % 2 = $3`,
      row.id,
      N,
      parity,
    );
  }
  // The move log: m entries a game, 1 … 4 s apart, a mix of draws and pile moves.
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Move" ("gameId", seq, kind, move, "createdAt", "gameDay")
     SELECT ${game}, s, 'move',
            (CASE (i::bigint * 31 + s * 7) % 5
               WHEN 0 THEN '{"type":"draw"}'
               WHEN 1 THEN jsonb_build_object('type', 'move', 'from', 'waste', 'to', 't' || (1 + (i + s) % 7), 'count', 1)
               WHEN 2 THEN jsonb_build_object('type', 'move', 'from', 't' || (1 + s % 7), 'to', 't' || (1 + (i + 3 * s) % 7), 'count', 1 + (i + s) % 4)
               WHEN 3 THEN jsonb_build_object('type', 'move', 'from', 't' || (1 + (i * s) % 7), 'to', (ARRAY['fC','fD','fH','fS'])[1 + (i + s) % 4], 'count', 1)
               ELSE '{"type":"draw"}'
             END)::jsonb,
            TIMESTAMP '${DATE}' + (i % 86000) * INTERVAL '1 second'
              + (s * 1000 + (i::bigint * s * 7919) % 3000) * INTERVAL '1 millisecond',
            DATE '${DATE}'
       FROM generate_series(1, $1::int) AS i, generate_series(1, 20 + (i * 37) % 140) AS s`,
    N,
  );
  // Each game's version is the length of its log (the log is read up to it).
  await prisma.$executeRawUnsafe(
    `UPDATE "Game" g SET version = m.n FROM (SELECT "gameId", max(seq) AS n FROM "Move" GROUP BY 1) m
      WHERE g.id = m."gameId"`,
  );
  await prisma.$executeRawUnsafe(`ANALYZE "Move", "Game", "DailyResult", "Player"`);
  const logged = await prisma.move.count();
  console.log(
    `${N.toLocaleString('en')} ranked attempts, ${logged.toLocaleString('en')} logged moves stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(
    `${availableParallelism()} cores, ${cpus()[0]?.model ?? '?'}, node ${process.version}; Postgres at ${new URL(BASE).host}`,
  );
  console.log(`RSS before the export: ${mb(process.memoryUsage().rss)}`);

  const made = await measure(() => storeMissingExports(new ExportRepository(prisma), '2025-02-02'));
  if (made.value.join() !== DATE) throw new Error(`exported ${made.value.join()}, expected ${DATE}`);
  const file = await prisma.dailyExport.findUniqueOrThrow({
    where: { date: DATE },
    select: { bytes: true, games: true },
  });
  if (file.games !== N) throw new Error(`${file.games} games exported, expected ${N}`);

  const served = await measure(async () => {
    const r = await app.inject({ method: 'GET', url: `/api/exports/${DATE}` });
    if (r.statusCode !== 200) throw new Error(`GET /api/exports/${DATE}: ${r.statusCode}`);
    return r.rawPayload.byteLength;
  });
  if (served.value !== file.bytes) throw new Error(`served ${served.value} bytes of ${file.bytes}`);

  console.log('| step | wall | CPU (this process) | peak RSS |');
  console.log('| --- | --- | --- | --- |');
  for (const [step, m] of [
    ['make and store the file', made],
    ['serve it once (inject)', served],
  ] as const)
    console.log(`| ${step} | ${m.wall.toFixed(2)} s | ${m.cpu.toFixed(2)} s | ${mb(m.peak)} |`);
  console.log(
    `file: ${file.bytes.toLocaleString('en')} bytes (${mb(file.bytes)}), ${file.games.toLocaleString('en')} games, ${(file.bytes / file.games).toFixed(0)} bytes a game, ${(logged / file.games).toFixed(1)} moves a game`,
  );
} finally {
  await app.close();
  await dropSchema(url);
}
