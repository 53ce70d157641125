/**
 * The independent verifier of a closed daily (docs/fairness.md, docs/data.md): from a server's public
 * answers alone it checks that the day's deal was fixed by the commitment published before the day opened,
 * and that its leaderboard follows from the moves played.
 *
 * It implements the commitment format itself (node:crypto) and replays every game with the rules package
 * (`@klondike/rules`), never asking the server to compute anything. The checks, in order (each by name):
 *
 * - `commitment-before`: the commitment seen before the day opened (`commitment` option, e.g. copied from
 *   the daily page) equals the one published with the reveal; without it, the archive's is compared;
 * - `preimage-hash`: SHA-256(reveal.preimage) = commitment;
 * - `preimage-fields`: the preimage is `klondike-daily|<date>|<preset>|deal-v2|<candidate>|<key>` with the
 *   day's date and preset and the revealed candidate and key;
 * - `key-deals-deal`: `dealFromKey(key)` deals exactly the revealed deal;
 * - `line-wins`: the published solver line replays to a won game;
 * - `par`: par = that line's length (and = its proven lower bound when `parProven`);
 * - `export-file`: GET /api/exports lists the day, and the file's SHA-256 and size are the listed ones;
 * - `export-games`: every line of the day's preset parses and plays the revealed deal;
 * - `export-options`: every game's options are the preset's ranked options (`rankedOptions`: the preset's,
 *   undo and hints off);
 * - `export-replay`: every game's moves replay legally, and its status, moves, time and score follow;
 * - `export-ranks`: every game's rank follows from the leaderboard order on its board;
 * - `leaderboard`: the server's leaderboards (people, bots; provisional rows included) hold exactly the
 *   export's results, at the same ranks;
 * - `export-players`: every game's player (`playerId`, `name`, `bot`, `provisional`) is the one the
 *   leaderboard shows for that game, and the player's page (GET /api/players/:id) agrees: the same name and
 *   bot flag, and `provisional` exactly when the account was created on the day or later.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  DailyArchiveSchema,
  DailyRevealSchema,
  type ExportGame,
  ExportGameSchema,
  ExportListSchema,
  LeaderboardSchema,
  PlayerPageSchema,
} from '@klondike/protocol';
import {
  type GameOptions,
  type GameState,
  PRESETS,
  applyMove,
  currentScore,
  dealFromKey,
  formatDeal,
  gameStatus,
  isPresetName,
  isWon,
  newGame,
  parseDeal,
  resign,
} from '@klondike/rules';
import { getJsonFrom } from './verify-fetch.js';

export { getJsonFrom } from './verify-fetch.js';
export {
  RACE_CHECKS,
  type RaceCheckName,
  type RaceCheckResult,
  type RaceVerifyOptions,
  type RaceVerifyReport,
  verifyRace,
} from './verify-race.js';

/** Names of the verifier's checks, in the order they run (module comment). */
export const CHECKS = [
  'commitment-before',
  'preimage-hash',
  'preimage-fields',
  'key-deals-deal',
  'line-wins',
  'par',
  'export-file',
  'export-games',
  'export-options',
  'export-replay',
  'export-ranks',
  'leaderboard',
  'export-players',
] as const;
/** A check's name. */
export type CheckName = (typeof CHECKS)[number];

/** One check's outcome. */
export interface CheckResult {
  readonly check: CheckName;
  readonly ok: boolean;
  /** What was compared, or why it failed. */
  readonly detail: string;
}

/** What `verifyDaily` checks. */
export interface VerifyOptions {
  /** The server, e.g. `http://localhost:3000`. */
  readonly server: string;
  /** UTC date `YYYY-MM-DD` of a closed day. */
  readonly date: string;
  /** Daily preset (`classic-draw1`, `classic-draw3`). */
  readonly preset: string;
  /** The commitment seen before the day opened (64 hex characters); omitted: the archive's is used. */
  readonly commitment?: string;
  /** A fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** The verifier's report: every check, and whether all passed. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly checks: readonly CheckResult[];
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** One row of a daily leaderboard. */
type LeaderboardEntry = ReturnType<typeof LeaderboardSchema.parse>['entries'][number];

/**
 * Ranked play (docs/features.md "Ranked rules"): the daily preset's options with undo and hints off, from the
 * rules package; null for a name that is not a preset.
 */
export function rankedOptions(preset: string): GameOptions | null {
  return isPresetName(preset) ? { ...PRESETS[preset], undo: false, hints: false } : null;
}

/** True when `a` and `b` have the same keys, each with the same value. */
function sameOptions(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/** Leaderboard order: winners first, score high first, then time, moves, finishing time, player id. */
function compareResults(a: ExportGame, b: ExportGame): number {
  const ra = a.result;
  const rb = b.result;
  const won = Number(rb.status === 'won') - Number(ra.status === 'won');
  return (
    won ||
    rb.score - ra.score ||
    ra.timeMs - rb.timeMs ||
    ra.moves - rb.moves ||
    Date.parse(ra.finishedAt) - Date.parse(rb.finishedAt) ||
    (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0)
  );
}

/** Why one exported game does not recompute to its result, or null when it does. */
function replayProblem(g: ExportGame, closesAtMs: number): string | null {
  const deal = parseDeal(g.deal);
  if (!deal.ok) return `${g.gameId}: unreadable deal`;
  let state: GameState = newGame(deal.value, g.options);
  let lastAt = 0;
  for (const [i, m] of g.moves.entries()) {
    const r = applyMove(state, m.move);
    if (!r.ok) return `${g.gameId}: move ${i + 1} is illegal (${r.error.code})`;
    if (m.atMs < lastAt) return `${g.gameId}: move ${i + 1} is earlier than the one before`;
    if (gameStatus(state) !== 'playing') return `${g.gameId}: move ${i + 1} after the game ended`;
    state = r.value;
    lastAt = m.atMs;
  }
  const res = g.result;
  let status: string = gameStatus(state);
  if (res.status === 'resigned' && status === 'playing') {
    const r = resign(state);
    if (!r.ok) return `${g.gameId}: cannot resign (${r.error.code})`;
    state = r.value;
    status = 'resigned';
  }
  if (res.status === 'unfinished' && status === 'playing') {
    status = 'unfinished';
    const expected = Math.max(0, closesAtMs - Date.parse(g.createdAt));
    if (res.timeMs !== expected)
      return `${g.gameId}: time ${res.timeMs} ms, the day closed after ${expected}`;
  }
  if (status !== res.status) return `${g.gameId}: status ${res.status}, the moves give ${status}`;
  if ((res.status === 'won' || res.status === 'blocked') && res.timeMs !== lastAt)
    return `${g.gameId}: time ${res.timeMs} ms, the last move was at ${lastAt}`;
  if (res.timeMs < lastAt) return `${g.gameId}: time ${res.timeMs} ms before the last move (${lastAt})`;
  if (res.moves !== state.moves) return `${g.gameId}: ${res.moves} moves, the log gives ${state.moves}`;
  const score = currentScore(state, res.timeMs);
  if (res.score !== score) return `${g.gameId}: score ${res.score}, the moves give ${score}`;
  return null;
}

/**
 * Checks a closed daily end to end (module comment) against `server`. Never throws for a failed check: a
 * check that cannot run (the server refuses, an answer does not parse) fails with the reason, and the
 * checks that depend on it fail as skipped.
 */
export async function verifyDaily(options: VerifyOptions): Promise<VerifyReport> {
  const doFetch = options.fetch ?? fetch;
  const base = options.server.replace(/\/+$/, '');
  const { date, preset } = options;
  const results: CheckResult[] = [];
  const record = (check: CheckName, ok: boolean, detail: string): boolean => {
    results.push({ check, ok, detail });
    return ok;
  };
  const skipRest = (reason: string): VerifyReport => {
    for (const check of CHECKS)
      if (!results.some((r) => r.check === check)) record(check, false, `not run: ${reason}`);
    return { ok: false, checks: results };
  };
  const getJson = (path: string): Promise<unknown> => getJsonFrom(doFetch, base, path);

  // ---------- commitment and deal ----------
  let reveal;
  try {
    reveal = DailyRevealSchema.parse(await getJson(`/api/daily/${date}/${preset}`));
  } catch (e) {
    record('commitment-before', false, `no reveal: ${(e as Error).message}`);
    return skipRest('no reveal');
  }
  const commitment = reveal.commitment;
  const parts = reveal.reveal;
  if (commitment === null || parts === null) {
    record('commitment-before', false, 'the day has no commitment (dealt before algorithm v2)');
    return skipRest('no commitment');
  }
  let before = options.commitment?.toLowerCase();
  let source = 'given';
  if (before === undefined) {
    source = 'from the archive';
    try {
      const archive = DailyArchiveSchema.parse(await getJson('/api/daily/archive'));
      before = archive.days.find((d) => d.date === date && d.preset === preset)?.commitment ?? undefined;
    } catch (e) {
      source = `archive unreadable: ${(e as Error).message}`;
    }
  }
  record(
    'commitment-before',
    before === commitment,
    before === undefined ? `no earlier commitment (${source})` : `${before} (${source}) vs ${commitment}`,
  );
  const hashed = sha256(parts.preimage);
  record('preimage-hash', hashed === commitment, `SHA-256(preimage) = ${hashed}`);
  const expected = ['klondike-daily', date, preset, 'deal-v2', String(parts.candidate), parts.key].join('|');
  record(
    'preimage-fields',
    parts.preimage === expected && parts.algorithm === 'deal-v2',
    `preimage ${parts.preimage}`,
  );
  const keyed = /^[0-9a-f]{64}$/.test(parts.key) ? dealFromKey(Buffer.from(parts.key, 'hex')) : null;
  const dealt = keyed?.ok ? formatDeal(keyed.value) : null;
  record(
    'key-deals-deal',
    dealt === reveal.deal,
    dealt === null ? 'the key is not 32 bytes of hex' : `dealFromKey(key) = ${dealt}`,
  );
  const deal = parseDeal(reveal.deal);
  const presetOpts = presetOptions(preset);
  let state = deal.ok && presetOpts !== null ? newGame(deal.value, presetOpts) : null;
  let legal = state !== null;
  for (const m of reveal.line) {
    if (state === null) break;
    const r = applyMove(state, m);
    if (!r.ok) {
      legal = false;
      break;
    }
    state = r.value;
  }
  record(
    'line-wins',
    legal && state !== null && isWon(state),
    `${reveal.line.length} moves ${legal && state !== null && isWon(state) ? 'win' : 'do not win'}`,
  );
  record(
    'par',
    reveal.par === reveal.line.length && (!reveal.parProven || reveal.parLowerBound === reveal.par),
    `par ${reveal.par}${reveal.parProven ? ' (proven)' : ''}, line ${reveal.line.length}, lower bound ${reveal.parLowerBound ?? 'none'}`,
  );

  // ---------- the export ----------
  let games: ExportGame[];
  try {
    const list = ExportListSchema.parse(await getJson('/api/exports'));
    const file = list.files.find((f) => f.date === date);
    if (file === undefined) throw new Error(`GET /api/exports lists no file for ${date}`);
    const r = await doFetch(`${base}${file.url}`);
    if (!r.ok) throw new Error(`GET ${file.url} → ${r.status}`);
    const bytes = new Uint8Array(await r.arrayBuffer());
    const got = sha256(bytes);
    if (got !== file.sha256 || bytes.byteLength !== file.bytes)
      throw new Error(
        `file SHA-256 ${got} (${bytes.byteLength} bytes), listed ${file.sha256} (${file.bytes})`,
      );
    const text = gunzipSync(bytes).toString('utf8');
    const lines = text.split('\n').filter((l) => l !== '');
    if (lines.length !== file.games) throw new Error(`${lines.length} lines, listed ${file.games}`);
    record(
      'export-file',
      true,
      `${file.url}: ${bytes.byteLength} bytes, SHA-256 ${got}, ${lines.length} games`,
    );
    const parsed: ExportGame[] = [];
    for (const [i, l] of lines.entries()) {
      const g = ExportGameSchema.safeParse(JSON.parse(l));
      if (!g.success) throw new Error(`line ${i + 1} does not parse: ${g.error.message.slice(0, 200)}`);
      parsed.push(g.data);
    }
    games = parsed.filter((g) => g.preset === preset);
  } catch (e) {
    record('export-file', false, (e as Error).message);
    return skipRest('no export');
  }
  const wrongDeal = games.filter((g) => g.deal !== reveal.deal || g.date !== date);
  record(
    'export-games',
    wrongDeal.length === 0,
    wrongDeal.length === 0
      ? `${games.length} games of ${preset}, all on the revealed deal`
      : `${wrongDeal.length} games not on the revealed deal: ${wrongDeal[0]?.gameId}`,
  );
  const ranked = rankedOptions(preset);
  const offRules = games.filter((g) => ranked === null || !sameOptions(g.options, { ...ranked }));
  record(
    'export-options',
    ranked !== null && offRules.length === 0,
    ranked === null
      ? `${preset} is not a preset of the rules package`
      : offRules.length === 0
        ? `${games.length} games with ${preset}'s ranked options (undo and hints off)`
        : `${offRules.length} games with other options: ${offRules[0]?.gameId} has ${JSON.stringify(offRules[0]?.options)}`,
  );
  const dayStartMs = Date.parse(`${date}T00:00:00.000Z`);
  const closesAtMs = dayStartMs + 86_400_000;
  const problems = games.map((g) => replayProblem(g, closesAtMs)).filter((p) => p !== null);
  record(
    'export-replay',
    problems.length === 0,
    problems.length === 0
      ? `${games.length} games replay to their status, moves, time and score`
      : `${problems.length} games do not: ${problems[0]}`,
  );
  const rankProblems: string[] = [];
  for (const bot of [false, true]) {
    const board = games.filter((g) => g.bot === bot).sort(compareResults);
    board.forEach((g, i) => {
      if (g.result.rank !== i + 1)
        rankProblems.push(`${g.gameId}: rank ${g.result.rank}, recomputed ${i + 1}`);
    });
  }
  record(
    'export-ranks',
    rankProblems.length === 0,
    rankProblems.length === 0 ? 'every rank follows from the order' : (rankProblems[0] ?? ''),
  );

  // ---------- the server's leaderboards ----------
  const lbProblems: string[] = [];
  /** The leaderboards' rows by game id (for `export-players`). */
  const rows = new Map<string, LeaderboardEntry>();
  try {
    for (const board of ['humans', 'bots'] as const) {
      const mine = new Map(games.filter((g) => g.bot === (board === 'bots')).map((g) => [g.gameId, g]));
      let seen = 0;
      for (let offset = 0; ; offset += 100) {
        const lb = LeaderboardSchema.parse(
          await getJson(
            `/api/daily/${date}/${preset}/leaderboard?board=${board}&include=provisional&limit=100&offset=${offset}`,
          ),
        );
        for (const e of lb.entries) {
          seen++;
          rows.set(e.gameId, e);
          const g = mine.get(e.gameId);
          const r = g?.result;
          if (r === undefined) lbProblems.push(`${board}: ${e.gameId} is not in the export`);
          else if (
            r.rank !== e.rank ||
            r.status !== e.status ||
            r.score !== e.score ||
            r.timeMs !== e.timeMs ||
            r.moves !== e.moves
          )
            lbProblems.push(`${board}: ${e.gameId} differs from the export`);
        }
        if (offset + lb.limit >= lb.total) {
          if (lb.total !== mine.size || seen !== mine.size)
            lbProblems.push(`${board}: ${lb.total} rows on the leaderboard, ${mine.size} in the export`);
          break;
        }
      }
    }
  } catch (e) {
    lbProblems.push((e as Error).message);
  }
  record(
    'leaderboard',
    lbProblems.length === 0,
    lbProblems.length === 0 ? 'both boards hold exactly the recomputed results' : (lbProblems[0] ?? ''),
  );
  const playerProblems = await playerProblemsOf(games, rows, dayStartMs, getJson);
  record(
    'export-players',
    playerProblems.length === 0,
    playerProblems.length === 0
      ? `${games.length} games' players match the leaderboards and the players' pages`
      : `${playerProblems.length} problems: ${playerProblems[0]}`,
  );
  return { ok: results.every((r) => r.ok), checks: results };
}

/** The options of a preset's games, from the rules package (null for an unknown preset). */
function presetOptions(preset: string): GameOptions | null {
  return isPresetName(preset) ? PRESETS[preset] : null;
}

/**
 * Why the exported games' players do not match (the `export-players` check): each game's `playerId`, `name`,
 * `bot` and `provisional` against its leaderboard row (`rows`, by game id), then each player's page: the same
 * name and bot flag, and `provisional` = created at or after `dayStartMs` (ms). Empty when all match.
 */
async function playerProblemsOf(
  games: readonly ExportGame[],
  rows: ReadonlyMap<string, LeaderboardEntry>,
  dayStartMs: number,
  getJson: (path: string) => Promise<unknown>,
): Promise<string[]> {
  const problems: string[] = [];
  const players = new Map<string, ExportGame>();
  for (const g of games) {
    const e = rows.get(g.gameId);
    if (e === undefined) problems.push(`${g.gameId}: no leaderboard row`);
    else
      for (const field of ['playerId', 'name', 'bot', 'provisional'] as const)
        if (g[field] !== e[field])
          problems.push(`${g.gameId}: ${field} ${String(g[field])}, the leaderboard has ${String(e[field])}`);
    if (!players.has(g.playerId)) players.set(g.playerId, g);
  }
  for (const [id, g] of players) {
    let page;
    try {
      page = PlayerPageSchema.parse(await getJson(`/api/players/${encodeURIComponent(id)}`));
    } catch (e) {
      problems.push(`player ${id}: ${(e as Error).message}`);
      continue;
    }
    const provisional = Date.parse(page.createdAt) >= dayStartMs;
    if (page.name !== g.name) problems.push(`player ${id}: exported as ${g.name}, named ${page.name}`);
    if (page.bot !== g.bot)
      problems.push(`player ${id}: exported bot ${g.bot}, the account's is ${page.bot}`);
    if (provisional !== g.provisional)
      problems.push(
        `player ${id}: exported provisional ${g.provisional}, created ${page.createdAt} (provisional ${provisional})`,
      );
  }
  return problems;
}
