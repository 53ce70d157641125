/**
 * The move log's hot path: the statement that commits a flush of game actions in ONE SQL statement. The
 * flushes themselves (batching, the commit queue) are the core's group commit (core/rooms/group-commit.ts),
 * which calls the `BatchWriter` made here.
 *
 * Each entry is one action of one game: the `Game` row moves from version `version − 1` to `version`
 * (optimistic check) and its `Move` row (`seq = version`) is appended. A flush writes every entry queued
 * while the previous flush ran, in a single statement — a CTE whose version-checked `UPDATE "Game" …
 * RETURNING` feeds the `INSERT INTO "Move"`; COMMIT_MOVES_SQL with the batch as arrays, or COMMIT_MOVE_SQL
 * with scalar parameters when the flush holds one entry — sent as a named prepared statement: one round trip, one
 * transaction (autocommit), so a batch is durable (synchronous_commit) or absent as a whole. An entry whose
 * version check fails is not logged, and the statement's result names it (a version conflict: another
 * writer got there first); the other entries of the batch still commit. A statement that fails (connection lost, constraint, disk) fails
 * every entry of that flush and no other.
 *
 * Per-game order is the caller's: the rooms submit at most one entry per game at a time (a room's write
 * queue), and a batch never holds two entries of one game.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** One action to commit: the game's new row values and its log entry. Times are ms since the epoch. */
export interface MoveCommit {
  readonly gameId: string;
  /** The game version after the action (= the log entry's `seq`); the database must hold `version − 1`. */
  readonly version: number;
  readonly status: 'playing' | 'won' | 'blocked' | 'resigned';
  readonly score: number;
  readonly moves: number;
  readonly startedAt: number;
  readonly endedAt: number | null;
  /** Server time of the action (the log entry's `createdAt`, the game's `updatedAt`). */
  readonly at: number;
  readonly kind: 'move' | 'undo' | 'resign';
  /** The move in the public notation when kind = move, else null. */
  readonly move: object | null;
}

/**
 * Writes one batch in one statement. Resolves with the ids of the games whose entry committed (the others
 * failed their version check); rejects when the statement failed, in which case nothing of it is stored.
 */
export type BatchWriter = (batch: readonly MoveCommit[]) => Promise<ReadonlySet<string>>;

/**
 * The statement. Its ten parameters are the batch by column, one element per entry (see `batchParameters`):
 * nine Postgres array literals and, for the moves, one JSON array; `ROWS FROM` zips them back into rows.
 * Measured against one JSON parameter parsed by `jsonb_to_recordset`, columns of arrays cost less
 * Postgres CPU per entry. The server writes the literals itself: node-postgres's generic array writer quotes
 * and regex-escapes every element, a visible share of the server's main thread in the benchmark; the moves, JSON with quotes in them, go as one `JSON.stringify`. The enum
 * arrays travel as text arrays, cast in SQL: PGlite writes a parameter of a type it does not know (an enum's
 * array) as plain text. A JSON `null` (no move: undo, resign) is stored as SQL NULL.
 *
 * Every access to "Game" is an index probe per entry, never a scan of the table: the UPDATE walks the
 * entries in id order (`ordered`, the outer side of a nested loop over the primary key) and so takes its row
 * locks in id order, which means two nodes flushing overlapping games cannot deadlock; an entry whose row is
 * not at `v − 1` is not updated, and READ COMMITTED re-checks the version of a row another transaction changed
 * meanwhile (the loser's entry then fails its check). An earlier version locked the rows first in a LATERAL
 * `SELECT … FOR UPDATE` and then updated them: the same order, one more probe and one more lock record per
 * entry, measurably more Postgres CPU per entry. The
 * UPDATE's RETURNING hands each entry's log values to the INSERT, so no two sets of entries are joined but the
 * last: the statement answers with the entries the INSERT did not log (the input filtered through
 * a hash of the INSERT's RETURNING: `NOT IN` of a subquery is hashed, where `NOT EXISTS` would plan as a
 * nested loop over both lists, quadratic in the batch), i.e. the version conflicts, so the usual answer is
 * no row at all and the server parses nothing per committed entry. The planner cannot know how many entries the arrays hold; were it to assume
 * many, it would scan a "Game" table of up to some ten thousand rows whole, twice per flush, even for one
 * entry (the benchmark's Postgres CPU per move showed it). The range condition on
 * `v` (always true: versions start at 1) carries the planner's default selectivity for a range of an
 * unknown distribution, which brings its estimate to one entry: then it probes the primary key per entry,
 * the right plan for any table size and, being per entry, linear in the batch as well.
 *
 * Times travel as ms since the epoch (numbers: nothing to format here or to parse there) and become the
 * UTC `timestamp(3)` values Prisma stores. The entry's partition key, its game's creation day, comes from the
 * row the UPDATE has just locked: no parameter, and the INSERT routes each entry to its day's partition.
 */
export const COMMIT_MOVES_SQL = `WITH input AS (
  SELECT g, v, st, sc, mv, ${utc('sa')} AS sa, ${utc('ea')} AS ea, ${utc('at')} AS at, k, NULLIF(m, 'null') AS m
  FROM ROWS FROM (unnest($1::text[]), unnest($2::int[]), unnest($3::text[]::"GameStatus"[]), unnest($4::int[]),
    unnest($5::int[]), unnest($6::float8[]), unnest($7::float8[]), unnest($8::float8[]),
    unnest($9::text[]::"MoveKind"[]), jsonb_array_elements($10::jsonb)) AS t(g, v, st, sc, mv, sa, ea, at, k, m)
  WHERE t.v BETWEEN 1 AND 2147483647
), ordered AS (
  SELECT * FROM input ORDER BY g
), upd AS (
  UPDATE "Game" SET version = o.v, status = o.st, score = o.sc, moves = o.mv,
    "startedAt" = o.sa, "endedAt" = o.ea, "updatedAt" = o.at
  FROM ordered o
  WHERE "Game".id = o.g AND "Game".version = o.v - 1
  RETURNING "Game".id, o.v, o.k, o.m, o.at, "Game"."createdAt"::date AS day
), ins AS (
  INSERT INTO "Move" ("gameId", seq, kind, move, "createdAt", "gameDay")
  SELECT id, v, k, m, at, day FROM upd
  RETURNING "gameId"
)
SELECT g AS "gameId" FROM input WHERE g NOT IN (SELECT "gameId" FROM ins)`;

/**
 * The statement of a flush that holds one entry: what COMMIT_MOVES_SQL does, for one entry, with one scalar
 * parameter per column (see `entryParameters`) instead of arrays to unzip, sort and filter. That is every
 * flush at a human pace, where moves arrive one at a time and each waits for its own commit. Measured alone
 * (`pnpm --filter @klondike/server bench:commit`), it costs less Postgres CPU and wall time a statement than
 * the array statement with one entry, in every round.
 * The version check is the same (`version = v − 1`, one primary-key probe), and so is the answer's meaning: the
 * INSERT returns the entry when it was logged, no row when the check refused it.
 */
export const COMMIT_MOVE_SQL = `WITH upd AS (
  UPDATE "Game" SET version = $2::int, status = $3::text::"GameStatus", score = $4::int, moves = $5::int,
    "startedAt" = ${utc('$6::float8')}, "endedAt" = ${utc('$7::float8')}, "updatedAt" = ${utc('$8::float8')}
  WHERE id = $1::text AND version = $2::int - 1
  RETURNING id, "createdAt"::date AS day
)
INSERT INTO "Move" ("gameId", seq, kind, move, "createdAt", "gameDay")
SELECT id, $2::int, $9::text::"MoveKind", $10::jsonb, ${utc('$8::float8')}, day FROM upd
RETURNING "gameId"`;

/**
 * COMMIT_MOVE_SQL's ten parameters for one entry: game id, version, status, score, move count, start, end
 * (null while playing) and action times in ms since the epoch, kind, and the move as JSON text (null when
 * kind ≠ move, stored as SQL NULL). Errors: TypeError for a non-integer count or a non-finite time, as in
 * `batchParameters`.
 */
export function entryParameters(c: MoveCommit): (string | number | null)[] {
  return [
    c.gameId,
    integer(c.version),
    c.status,
    integer(c.score),
    integer(c.moves),
    finite(c.startedAt),
    c.endedAt === null ? null : finite(c.endedAt),
    finite(c.at),
    c.kind,
    c.move === null ? null : JSON.stringify(c.move),
  ];
}

/** ms since the epoch (float8 column `col`) → timestamp without time zone in UTC, as Prisma stores DateTime. */
function utc(col: string): string {
  return `(to_timestamp(${col} / 1000.0) AT TIME ZONE 'UTC')`;
}

/** Names of the prepared statements (per connection; node-postgres prepares each on first use). */
const STATEMENT_NAME = 'klondike_commit_moves';
const SINGLE_STATEMENT_NAME = 'klondike_commit_move';

/**
 * The statement's ten parameters: one per column, element i of each for entry i — game ids, versions,
 * statuses, scores, move counts, start times, end times (NULL while playing), action times (ms since the
 * epoch), kinds, as Postgres array literals (`{"a","b"}`, `{1,2}`), and the moves as one JSON array (null
 * where kind ≠ move). One pass over the batch; strings are quoted, and escaped only when they hold `"` or `\`.
 */
export function batchParameters(batch: readonly MoveCommit[]): string[] {
  let g = '{';
  let v = '{';
  let st = '{';
  let sc = '{';
  let mv = '{';
  let sa = '{';
  let ea = '{';
  let at = '{';
  let k = '{';
  const m = new Array<object | null>(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const c = batch[i] as MoveCommit;
    const sep = i === 0 ? '' : ',';
    g += sep + quoted(c.gameId);
    v += sep + integer(c.version);
    st += sep + quoted(c.status);
    sc += sep + integer(c.score);
    mv += sep + integer(c.moves);
    sa += sep + finite(c.startedAt);
    ea += sep + (c.endedAt === null ? 'NULL' : finite(c.endedAt));
    at += sep + finite(c.at);
    k += sep + quoted(c.kind);
    m[i] = c.move;
  }
  return [
    g + '}',
    v + '}',
    st + '}',
    sc + '}',
    mv + '}',
    sa + '}',
    ea + '}',
    at + '}',
    k + '}',
    JSON.stringify(m),
  ];
}

/** A string as a quoted element of an array literal (`"` and `\` escaped by a backslash). */
function quoted(s: string): string {
  if (s.indexOf('"') === -1 && s.indexOf('\\') === -1) return `"${s}"`;
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** An integer column's value; anything else is a bug upstream, refused here rather than stored. */
function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return n;
}

/** A float8 column's value (times in ms): finite numbers only. */
function finite(n: number): number {
  if (!Number.isFinite(n)) throw new TypeError(`not a finite number: ${n}`);
  return n;
}

/**
 * The games of `batch` that committed, from the rows the statement returned: the entries refused by their
 * version check (usually none, so a flush's answer is usually empty however large the batch).
 */
function committedIds(
  batch: readonly MoveCommit[],
  refused: readonly { gameId: string }[],
): ReadonlySet<string> {
  const ids = new Set(batch.map((c) => c.gameId));
  for (const r of refused) ids.delete(r.gameId);
  return ids;
}

/** The game of a one-entry batch when COMMIT_MOVE_SQL logged it (it returned a row), else none. */
function committedEntry(entry: MoveCommit, logged: readonly unknown[]): ReadonlySet<string> {
  return logged.length === 1 ? new Set([entry.gameId]) : new Set();
}

/** Runs one of the two statements (`name`: its prepared statement's name) and returns its rows. */
type RunStatement = (
  name: string,
  text: string,
  values: (string | number | null)[],
) => Promise<readonly { gameId: string }[]>;

/** The batch writer over `run`: COMMIT_MOVE_SQL for a batch of one, COMMIT_MOVES_SQL for more. */
function batchWriter(run: RunStatement): BatchWriter {
  return async (batch) => {
    const [only] = batch;
    if (batch.length === 1 && only !== undefined)
      return committedEntry(only, await run(SINGLE_STATEMENT_NAME, COMMIT_MOVE_SQL, entryParameters(only)));
    return committedIds(batch, await run(STATEMENT_NAME, COMMIT_MOVES_SQL, batchParameters(batch)));
  };
}

/** The batch writer over a node-postgres pool (the pool Prisma's adapter uses), on named prepared statements. */
export function pgBatchWriter(pool: pg.Pool): BatchWriter {
  return batchWriter(
    async (name, text, values) => (await pool.query<{ gameId: string }>({ name, text, values })).rows,
  );
}

/** The batch writer over embedded PGlite (the instance Prisma's adapter uses). */
export function pgliteBatchWriter(db: PGlite): BatchWriter {
  return batchWriter(async (_name, text, values) => (await db.query<{ gameId: string }>(text, values)).rows);
}
