/**
 * `pnpm --filter @klondike/server bench:move-wal`: the WAL a move costs Postgres, written by the move log's
 * commit statements (db/move-log.ts) into the partitioned "Move" table, as Postgres itself counts it for each
 * statement (`EXPLAIN (ANALYZE, WAL)`: this statement's records only, not the other work of a shared
 * server; the commit record, some 40 bytes a statement, is not in it).
 *
 * On a fresh schema: GAMES games, then ROUNDS rounds in which every game takes one move, through the
 * one-entry statement (a move at a human pace) and through the batch statement (BATCH games a statement, as
 * at a peak). The first round of each is a warm-up (the first change of each page after a checkpoint writes
 * the whole page). Prints bytes a move: mean and median over the statements of the later rounds.
 *
 * Env: DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test), GAMES (2,000), ROUNDS
 * (4), BATCH (50).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PRESETS } from '@klondike/rules';
import { openDatabase } from '../src/infra/db/database.js';
import {
  COMMIT_MOVES_SQL,
  COMMIT_MOVE_SQL,
  type MoveCommit,
  batchParameters,
  entryParameters,
} from '../src/infra/db/move-log.js';
import { ensureDatabase } from './database.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const GAMES = Number(process.env.GAMES ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const BATCH = Number(process.env.BATCH ?? 50);

interface Plan {
  'WAL Bytes'?: number;
  Plans?: Plan[];
}

async function walBytes(client: pg.Client, sql: string, values: unknown[]): Promise<number> {
  const r = await client.query<{ 'QUERY PLAN': { Plan: Plan }[] }>(
    `EXPLAIN (ANALYZE, WAL, FORMAT JSON) ${sql}`,
    values,
  );
  const plan = r.rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (plan?.['WAL Bytes'] === undefined) throw new Error('no WAL figure in the plan');
  return plan['WAL Bytes'];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const schema = `movewalbench_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  await (await openDatabase({ kind: 'postgres', url: url.toString() })).close();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const ids = Array.from(
      { length: GAMES },
      (_, i) => `walbench-${randomBytes(6).toString('base64url')}-${i}`,
    );
    await client.query(
      `INSERT INTO "Game" (id, preset, options, deal, "dealKey", "updatedAt")
       SELECT unnest($1::text[]), 'classic-draw1', $2::jsonb, $3, $4, now()`,
      [ids, JSON.stringify(PRESETS['classic-draw1']), 'AS '.repeat(52).trim(), 'ab'.repeat(32)],
    );
    const version = new Map(ids.map((id) => [id, 0]));
    const entry = (id: string): MoveCommit => {
      const v = (version.get(id) ?? 0) + 1;
      version.set(id, v);
      const now = Date.now();
      return {
        gameId: id,
        version: v,
        status: 'playing',
        score: v * 5,
        moves: v,
        startedAt: now - 60_000,
        endedAt: null,
        at: now,
        kind: 'move',
        move: { type: 'move', from: 'waste', to: `t${1 + (v % 7)}`, count: 1 },
      };
    };
    const single: number[] = [];
    const batched: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const id of ids) {
        const bytes = await walBytes(client, COMMIT_MOVE_SQL, entryParameters(entry(id)));
        if (round > 0) single.push(bytes);
      }
      for (let i = 0; i < ids.length; i += BATCH) {
        const bytes = await walBytes(
          client,
          COMMIT_MOVES_SQL,
          batchParameters(ids.slice(i, i + BATCH).map(entry)),
        );
        if (round > 0) batched.push(bytes / Math.min(BATCH, ids.length - i));
      }
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`move log WAL (Postgres, "Move" partitioned; ${GAMES} games, rounds 2–${ROUNDS}):`);
    console.log(
      `  one entry a statement:  mean ${mean(single).toFixed(0)} B, median ${median(single).toFixed(0)} B a move`,
    );
    console.log(
      `  ${BATCH} entries a statement: mean ${mean(batched).toFixed(0)} B, median ${median(batched).toFixed(0)} B a move`,
    );
    console.log(
      JSON.stringify({ games: GAMES, batch: BATCH, singleMean: mean(single), batchMean: mean(batched) }),
    );
  } finally {
    await client.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => undefined);
    await client.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
