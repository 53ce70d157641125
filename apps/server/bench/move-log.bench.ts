/**
 * `pnpm --filter @klondike/server bench:move-log`: what a finished game costs in Postgres, with its log as
 * "Move" rows and after compaction into its row (docs/move-log.md).
 *
 * For each kind of game, a server in this process on a schema of its own plays GAMES games over its REST
 * API, each 39 legal moves (a seeded choice among the legal ones) and a resignation: 40 entries. `casual`:
 * anonymous games of the default preset (POST /api/games). `ranked`: GAMES players each start their ranked
 * attempt at today's daily of DAILY_PRESET (POST /api/daily/:date/:preset/attempt, undo and hints off).
 * Then, after `VACUUM FULL` and again after compaction (with a cutoff past the close of today's daily, as
 * the maintenance tick's would be a day after it) and another `VACUUM FULL`, it reports the bytes of every
 * table of the schema (heap, TOAST and indexes; the partitions of "Move" counted one by one) over the schema
 * before the first game (migrated; for `ranked`, with its players and dailies), per game. A game's bytes
 * are those of "Game" and "Move"; a ranked attempt's leaderboard rows ("DailyAttempt", "DailyResult") are
 * listed apart.
 *
 * Env: DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test), GAMES (default 300),
 * MOVES (default 40, the resignation included), KIND (`casual`, `ranked` or `both`, the default),
 * DAILY_PRESET (default classic-draw1).
 */
import { randomBytes } from 'node:crypto';
import { type DailyPreset, DailyPresetSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { closesAt, utcDate } from '../src/infra/dates.js';
import { compactFinishedGames } from '../src/features/maintenance/compaction.js';
import { MaintenanceRepository } from '../src/features/maintenance/repository.js';
import { ensureDatabase } from './database.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const GAMES = Number(process.env.GAMES ?? 300);
const MOVES = Number(process.env.MOVES ?? 40);
/** The kinds of game measured, one schema each. */
const KINDS = ((k: string): readonly ('casual' | 'ranked')[] => {
  if (k === 'both') return ['casual', 'ranked'];
  if (k === 'casual' || k === 'ranked') return [k];
  throw new Error(`KIND: casual, ranked or both, not ${k}`);
})(process.env.KIND ?? 'both');
const DAILY_PRESET: DailyPreset = DailyPresetSchema.parse(process.env.DAILY_PRESET ?? 'classic-draw1');

/** The tables a game's own bytes are in: its row and its log's rows. */
const GAME_TABLES = /^(Game|Move)(_|$)/;

/** A seeded PRNG (mulberry32): the same games every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sizes {
  readonly total: number;
  readonly byTable: Record<string, number>;
}

async function sizes(client: pg.Client, schema: string): Promise<Sizes> {
  await client.query('VACUUM FULL');
  const rows = (
    await client.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    )
  ).rows;
  const byTable: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    byTable[r.name] = Number(r.bytes);
    total += Number(r.bytes);
  }
  return { total, byTable };
}

/**
 * Starts one game of `kind`; returns its id, the headers its moves need and the player reading its legal
 * moves (a ranked attempt's owner; null for an anonymous game).
 */
type Start = () => Promise<{ id: string; headers: Record<string, string>; actor: string | null }>;

/** How `measure` starts the games of `kind` (after creating what they need: players, today's dailies). */
async function starter(app: FastifyInstance, kind: 'casual' | 'ranked'): Promise<Start> {
  if (kind === 'casual')
    return async () => {
      const created = await app.inject({ method: 'POST', url: '/api/games', payload: {} });
      if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
      return { id: created.json<{ id: string }>().id, headers: {}, actor: null };
    };
  const players: { id: string; token: string }[] = [];
  for (let p = 0; p < GAMES; p++) {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name: `bench${p}` } });
    if (r.statusCode !== 201) throw new Error(`player ${p}: ${r.statusCode} ${r.body}`);
    players.push(r.json<{ id: string; token: string }>());
  }
  // Today's dailies are made on first use; the tick stores tomorrow's too, before the sizes are taken.
  const today = await app.inject({ method: 'GET', url: '/api/daily' });
  if (today.statusCode !== 200) throw new Error(`daily: ${today.statusCode} ${today.body}`);
  await app.daily.tick();
  const date = utcDate(Date.now());
  let next = 0;
  return async () => {
    const player = players[next++];
    if (player === undefined) throw new Error('more games than players');
    const headers = { authorization: `Bearer ${player.token}` };
    const created = await app.inject({
      method: 'POST',
      url: `/api/daily/${date}/${DAILY_PRESET}/attempt`,
      headers,
    });
    if (created.statusCode !== 201) throw new Error(`attempt: ${created.statusCode} ${created.body}`);
    return { id: created.json<{ id: string }>().id, headers, actor: player.id };
  };
}

async function measure(kind: 'casual' | 'ranked'): Promise<void> {
  const schema = `movelogbench_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const app = await buildApp({
    env: {},
    config: {
      logLevel: 'silent',
      rateLimitMax: 0,
      wsFramesPerSecond: 0,
      webDist: '/nonexistent-web-dist',
      solverThreads: 1,
      dailySchedule: false,
      dailyArchiveDays: 0,
      // A fixed secret: every run on one day deals the same dailies (so the same ranked games).
      dailySecret: 'move-log-bench-daily-secret-0123456789',
      maintenanceTickMs: 0,
      databaseUrl: url.toString(),
    },
  });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const start = await starter(app, kind);
    const empty = await sizes(client, schema);
    const random = prng(43);
    let entries = 0;
    for (let g = 0; g < GAMES; g++) {
      const { id, headers, actor } = await start();
      let version = 0;
      for (let i = 0; i < MOVES - 1; i++) {
        const { moves } = await app.rooms.legalMoves(id, actor);
        if (moves.length === 0) break;
        const move = moves[Math.floor(random() * moves.length)];
        const r = await app.inject({
          method: 'POST',
          url: `/api/games/${id}/moves`,
          headers,
          payload: { move, version },
        });
        if (r.statusCode !== 200) throw new Error(`move ${i} of ${id}: ${r.statusCode} ${r.body}`);
        version = r.json<{ version: number }>().version;
      }
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${id}/resign`,
        headers,
        payload: { version },
      });
      if (r.statusCode !== 200) throw new Error(`resign ${id}: ${r.statusCode} ${r.body}`);
      entries += r.json<{ version: number }>().version;
      app.rooms.evict(id);
    }
    const live = await sizes(client, schema);
    // Past the close of today's daily: a ranked attempt is compacted once its day has closed.
    const cutoff = new Date(closesAt(utcDate(Date.now())) + 60_000);
    const report = await compactFinishedGames(new MaintenanceRepository(app.prisma), cutoff, {
      maxBatches: Number.MAX_SAFE_INTEGER,
    });
    if (report.games !== GAMES) throw new Error(`compacted ${report.games} of ${GAMES} games`);
    const compacted = await sizes(client, schema);
    const [log] = (
      await client.query<{ avg: string }>(`SELECT avg(octet_length("moveLog")) AS avg FROM "Game"`)
    ).rows;
    // Where a compacted game's bytes are: its row's columns (heap, before the fillfactor's free space), a
    // NULL counting 0 B (the options of a game its preset names, db/game-options.ts).
    const [row] = (
      await client.query<Record<string, string>>(
        `SELECT avg(pg_column_size(g.*)) AS "row", avg(coalesce(pg_column_size(options), 0)) AS options,
                avg(pg_column_size(deal)) AS deal, avg(coalesce(pg_column_size("dealKey"), 0)) AS "dealKey",
                avg(coalesce(pg_column_size("moveLog"), 0)) AS "moveLog" FROM "Game" g`,
      )
    ).rows;
    const perGame = (s: Sizes, only: (table: string) => boolean = () => true): number =>
      Math.round(
        Object.entries(s.byTable)
          .filter(([name]) => only(name))
          .reduce((sum, [name, bytes]) => sum + bytes - (empty.byTable[name] ?? 0), 0) / GAMES,
      );
    const ofGame = (name: string): boolean => GAME_TABLES.test(name);
    const others = (s: Sizes): string =>
      kind === 'casual' ? '' : `; with its leaderboard rows ${perGame(s)} B`;
    const tables = (s: Sizes): string =>
      Object.entries(s.byTable)
        .filter(([name, bytes]) => bytes !== empty.byTable[name])
        .map(([name, bytes]) => `${name} ${bytes - (empty.byTable[name] ?? 0)} B`)
        .join(', ');
    console.log(
      `move log, ${kind === 'casual' ? 'casual games' : `ranked attempts (${DAILY_PRESET})`}: ${GAMES} finished games, ${(entries / GAMES).toFixed(1)} entries a game (Postgres, after VACUUM FULL)`,
    );
    console.log(`  as "Move" rows:  ${perGame(live, ofGame)} B a game${others(live)}   (${tables(live)})`);
    console.log(
      `  compacted:       ${perGame(compacted, ofGame)} B a game${others(compacted)}   (${tables(compacted)})`,
    );
    console.log(
      `  compact log:     ${Number(log?.avg ?? 0).toFixed(1)} B a game, ${(Number(log?.avg ?? 0) / (entries / GAMES)).toFixed(2)} B an entry`,
    );
    console.log(
      `  a compacted row: ${Object.entries(row ?? {})
        .map(([k, v]) => `${k} ${Number(v).toFixed(0)} B`)
        .join(', ')} (heap at fillfactor 70, plus the indexes)`,
    );
    console.log(
      JSON.stringify({
        kind,
        games: GAMES,
        entriesPerGame: entries / GAMES,
        liveBytesPerGame: perGame(live, ofGame),
        compactedBytesPerGame: perGame(compacted, ofGame),
        compactedBytesWithRows: perGame(compacted),
        compactLogBytes: Number(log?.avg ?? 0),
      }),
    );
  } finally {
    await client.end();
    await app.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    if (process.env.KEEP_SCHEMA === undefined)
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`).finally(() => admin.end());
    else await admin.end();
  }
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  for (const kind of KINDS) await measure(kind);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
