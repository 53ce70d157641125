/**
 * The move log's statement measured alone: `pnpm --filter @klondike/server bench:commit`.
 *
 * What one entry of a group commit costs Postgres, without the server, the sockets or the load generator
 * sharing the cores: in a fresh schema `commitbench_<random>` (created and migrated by the server's `openDatabase`,
 * dropped at the end) of COMMIT_GAMES games (default 200, as the server benchmark's throughput phase), one connection
 * sends `COMMIT_MOVES_SQL` (apps/server/src/infra/db/move-log.ts) as the server does, a named prepared statement
 * whose batch is written by `batchParameters`, each entry taking its game one version further. For each batch
 * size in COMMIT_BATCHES (default `10,60,200`; the server benchmark's flushes hold ~60) it prints the backend's
 * CPU per entry (/proc/<pid>/stat of the Postgres process serving the connection, user + system) and the wall
 * time per entry, over COMMIT_ENTRIES entries (default 24,000) after a warm-up of a tenth of that.
 *
 * Then the statement of a flush of one entry, `COMMIT_MOVE_SQL` (scalar parameters, `entryParameters`): every
 * flush at a human pace, measured over COMMIT_SINGLE_ENTRIES statements (default 3,000), beside the array
 * statement with one entry.
 *
 * Beside it, as a floor, the same batches through the `Move` insert alone (what an append-only log that never
 * updates "Game" would cost): were the two close, the game row's update is not where Postgres spends.
 *
 * Env: COMMIT_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/klondike_test, created when
 * missing); Postgres must run on this machine (its backend's CPU is read from /proc).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  COMMIT_MOVES_SQL,
  COMMIT_MOVE_SQL,
  type MoveCommit,
  batchParameters,
  entryParameters,
} from '../src/infra/db/move-log.js';
import { openDatabase } from '../src/infra/db/database.js';
import { ensureDatabase } from './database.js';
import { cpuSecondsOf } from './proc.js';

const DATABASE_URL = process.env.COMMIT_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
const GAMES = Math.max(1, Number(process.env.COMMIT_GAMES ?? 200));
const ENTRIES = Math.max(100, Number(process.env.COMMIT_ENTRIES ?? 24_000));
const SINGLE_ENTRIES = Math.max(100, Number(process.env.COMMIT_SINGLE_ENTRIES ?? 3_000));
const BATCHES = (process.env.COMMIT_BATCHES ?? '10,60,200')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);

/**
 * The floor: the statement's input and its `Move` insert, with no "Game" row touched; the key's conflict is
 * the version check. Not a mode of the server (its "Game" row would fall behind the log).
 */
const INSERT_ONLY_SQL = COMMIT_MOVES_SQL.replace(
  /\), ordered AS \([\s\S]*$/,
  `)
INSERT INTO "Move" ("gameId", seq, kind, move, "createdAt", "gameDay")
SELECT g, v, k, m, at, at::date FROM input ON CONFLICT DO NOTHING`,
);

async function main(): Promise<void> {
  if (!COMMIT_MOVES_SQL.includes('ordered AS (') || INSERT_ONLY_SQL === COMMIT_MOVES_SQL)
    throw new Error('COMMIT_MOVES_SQL changed shape: update INSERT_ONLY_SQL');
  await ensureDatabase(DATABASE_URL);
  const schema = `commitbench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    // Created and migrated as the server does it (`?schema=` creates the schema); then this one connection.
    const url = new URL(DATABASE_URL);
    url.searchParams.set('schema', schema);
    await (await openDatabase({ kind: 'postgres', url: url.toString() })).close();
    await client.query(`SET search_path TO "${schema}"`);
    const ids = Array.from({ length: GAMES }, (_, i) => `bench-${String(i).padStart(6, '0')}`);
    await client.query(
      `INSERT INTO "Game" (id, options, deal, "updatedAt") SELECT unnest($1::text[]), '{}', 'x', now()`,
      [ids],
    );
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    if (pid === undefined) throw new Error('no backend pid');
    const versions = new Map(ids.map((id) => [id, 0]));
    let next = 0;
    /**
     * `entries` entries in batches of `size`, each game one version further, through `sql` (the one-entry
     * statement when `single`); returns CPU and wall seconds.
     */
    const run = async (name: string, sql: string, size: number, entries: number, single = false) => {
      const cpu0 = cpuSecondsOf(pid);
      const t0 = performance.now();
      for (let done = 0; done < entries; done += size) {
        const batch: MoveCommit[] = [];
        for (let i = 0; i < size; i++) {
          const gameId = ids[next++ % GAMES] as string;
          const version = (versions.get(gameId) ?? 0) + 1;
          versions.set(gameId, version);
          const at = Date.now();
          batch.push({
            gameId,
            version,
            status: 'playing',
            score: 0,
            moves: version,
            startedAt: at,
            endedAt: null,
            at,
            kind: 'move',
            move: { type: 'draw' },
          });
        }
        const values = single && batch[0] ? entryParameters(batch[0]) : batchParameters(batch);
        await client.query({ name: `${name}_${size}`, text: sql, values });
      }
      return { cpu: cpuSecondsOf(pid) - cpu0, wall: (performance.now() - t0) / 1000 };
    };
    const rows: string[] = [];
    const perEntry = (s: number, entries: number) => ((s * 1e6) / entries).toFixed(1);
    // A flush of one entry: the array statement, then the one-entry statement, alternating twice.
    for (let round = 0; round < 2; round++) {
      for (const [name, sql, single] of [
        ['statement', COMMIT_MOVES_SQL, false],
        ['one-entry statement', COMMIT_MOVE_SQL, true],
      ] as const) {
        await run(name.replaceAll(' ', '_'), sql, 1, Math.ceil(SINGLE_ENTRIES / 10), single);
        const r = await run(name.replaceAll(' ', '_'), sql, 1, SINGLE_ENTRIES, single);
        rows.push(
          `| ${name} | 1 | ${perEntry(r.cpu, SINGLE_ENTRIES)} | ${perEntry(r.wall, SINGLE_ENTRIES)} | ${SINGLE_ENTRIES} |`,
        );
      }
    }
    // The statement first: the insert-only floor leaves "Game" behind the log, after which the statement's
    // version check would refuse every entry.
    for (const [name, sql] of [
      ['statement', COMMIT_MOVES_SQL],
      ['insert only', INSERT_ONLY_SQL],
    ] as const) {
      for (const size of BATCHES) {
        const entries = Math.ceil(ENTRIES / size) * size;
        await run(name.replace(' ', '_'), sql, size, Math.ceil(entries / 10 / size) * size);
        const r = await run(name.replace(' ', '_'), sql, size, entries);
        rows.push(
          `| ${name} | ${size} | ${perEntry(r.cpu, entries)} | ${perEntry(r.wall, entries)} | ${entries} |`,
        );
      }
    }
    console.log(
      `The move log's statement alone, ${GAMES} games, Postgres on ${new URL(DATABASE_URL).host}:\n\n` +
        '| statement | entries a statement | backend CPU µs / entry | wall µs / entry | entries |\n' +
        '| --- | --- | --- | --- | --- |\n' +
        rows.join('\n'),
    );
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await client.end();
  }
}

await main();
