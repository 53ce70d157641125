/**
 * The independent verifier of a finished race (`pnpm verify -- --race CODE`, docs/fairness.md "Race
 * commitments are salted"): from a server's public answers alone it checks that the race's deal was fixed by
 * the commitment its room showed from the start, and that every racer's stored result follows from the moves
 * of their game.
 *
 * It implements the race commitment format itself (node:crypto) and replays every racer's game with the
 * rules package (`@klondike/rules`). The checks, in order (each by name):
 *
 * - `commitment-before`: the commitment seen before the start (`commitment` option, e.g. copied from the
 *   room's lobby) equals the one revealed with the results; without it, the room's own (GET /api/races/:code)
 *   is compared;
 * - `preimage-hash`: SHA-256(dealReveal.preimage) = the commitment;
 * - `preimage-fields`: the preimage is `klondike-race|<code>|deal-v2|<key>|<salt>` (or `…|deal-v1|<number>|
 *   <salt>`) with the race's code and the revealed key or number and salt, the salt 64 hex digits (256 bits);
 *   a race stored before salts (`salt` null) has the same preimage without `|<salt>`, reported as unsalted;
 * - `key-deals-deal`: `dealFromKey(key)` (or `dealFromNumber(number)`) deals exactly the revealed deal;
 * - `race-options`: a rated race is unaided and of a rated pool: preset `classic-draw1` or `classic-draw3`,
 *   exactly that preset's options with hints off (rules package `PRESETS`), and not a known deal;
 * - `racer-replay`: every racer's game (GET /api/games/:id/replay) is that racer's, plays the race's deal with
 *   the race's options (undo off for a berserk racer), replays legally, and ends with the stored result's
 *   cards on the foundations, face-down cards, moves and status (and its score, for untimed scoring).
 */
import { createHash } from 'node:crypto';
import { RaceResultsSchema, RaceSchema, ReplaySchema } from '@klondike/protocol';
import {
  type Deal,
  type GameOptions,
  type GameState,
  PRESETS,
  type Result,
  applyMove,
  currentScore,
  dealFromKey,
  dealFromNumber,
  formatDeal,
  gameStatus,
  newGame,
  parseDeal,
  resign,
  undo,
} from '@klondike/rules';
import { getJsonFrom } from './verify-fetch.js';

/** Names of the race verifier's checks, in the order they run (module comment). */
export const RACE_CHECKS = [
  'commitment-before',
  'preimage-hash',
  'preimage-fields',
  'key-deals-deal',
  'race-options',
  'racer-replay',
] as const;
/** A race check's name. */
export type RaceCheckName = (typeof RACE_CHECKS)[number];

/** One race check's outcome. */
export interface RaceCheckResult {
  readonly check: RaceCheckName;
  readonly ok: boolean;
  /** What was compared, or why it failed. */
  readonly detail: string;
}

/** What `verifyRace` checks. */
export interface RaceVerifyOptions {
  /** The server, e.g. `http://localhost:3000`. */
  readonly server: string;
  /** The finished race's invite code. */
  readonly code: string;
  /** The commitment seen before the start (64 hex characters); omitted: the room's own is used. */
  readonly commitment?: string;
  /** A fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** The race verifier's report: every check, and whether all passed. */
export interface RaceVerifyReport {
  readonly ok: boolean;
  readonly checks: readonly RaceCheckResult[];
}

type RaceResults = ReturnType<typeof RaceResultsSchema.parse>;
type RaceView = ReturnType<typeof RaceSchema.parse>;
type Replay = ReturnType<typeof ReplaySchema.parse>;
/** One racer's stored result. */
type RacerResult = RaceResults['results'][number];

const HEX64 = /^[0-9a-f]{64}$/;
const sha256 = (data: string): string => createHash('sha256').update(data).digest('hex');

/** Progress statuses whose game the server may have left playing or resigned (the race ended around it). */
const CUT_SHORT = new Set(['forfeited', 'timeout', 'unfinished']);

/** The same options: the same keys, each with the same value. */
function sameOptions(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/** Why one racer's game does not give their stored result, or null when it does. */
function racerProblem(r: RacerResult, replay: Replay, race: RaceView, deal: string): string | null {
  const who = `${r.playerId} (${r.gameId})`;
  if (replay.player?.id !== r.playerId) return `${who}: the game is ${replay.player?.id ?? 'nobody'}'s`;
  if (replay.deal !== deal) return `${who}: the game does not play the race's deal`;
  const berserk = race.racers.find((x) => x.playerId === r.playerId)?.berserk === true;
  const expected: GameOptions = berserk ? { ...race.options, undo: false } : race.options;
  if (!sameOptions(replay.options, { ...expected }))
    return `${who}: options ${JSON.stringify(replay.options)}, the race has ${JSON.stringify(expected)}`;
  const parsed = parseDeal(replay.deal);
  if (!parsed.ok) return `${who}: unreadable deal`;
  let state: GameState = newGame(parsed.value, expected);
  for (const [i, step] of replay.steps.entries()) {
    let next: Result<GameState, { code: string }>;
    if (step.type === 'move') {
      if (step.move === undefined) return `${who}: step ${i + 1} is a move without a move`;
      next = applyMove(state, step.move);
    } else next = step.type === 'undo' ? undo(state) : resign(state);
    if (!next.ok) return `${who}: step ${i + 1} (${step.type}) is illegal (${next.error.code})`;
    state = next.value;
  }
  const p = r.progress;
  const foundationCards = state.foundations.reduce((n, f) => n + f, 0);
  const faceDown = state.tableau.reduce((n, t) => n + t.faceDown, 0);
  if (p.foundationCards !== foundationCards)
    return `${who}: ${p.foundationCards} cards on the foundations, the moves give ${foundationCards}`;
  if (p.faceDown !== faceDown) return `${who}: ${p.faceDown} face-down cards, the moves give ${faceDown}`;
  if (p.moves !== state.moves) return `${who}: ${p.moves} moves, the moves give ${state.moves}`;
  const status = gameStatus(state);
  const statusOk = CUT_SHORT.has(p.status)
    ? status === 'playing' || status === 'resigned'
    : p.status === status;
  if (!statusOk) return `${who}: status ${p.status}, the moves give ${status}`;
  if (!(expected.scoring === 'standard' && expected.timed)) {
    const score = currentScore(state, 0);
    if (p.score !== score) return `${who}: score ${p.score}, the moves give ${score}`;
  }
  return null;
}

/** The presets of the rated race pools (docs/ratings.md). */
const RATED_PRESETS: ReadonlySet<string> = new Set(['classic-draw1', 'classic-draw3']);

/** Why a rated race's settings are not those of rated play, or null when they are (or it is unrated). */
function ratedProblem(race: RaceView): string | null {
  if (!race.rated) return null;
  if (race.knownDeal) return 'a rated race of a known deal (a deal number the host chose)';
  if (race.preset === null || !RATED_PRESETS.has(race.preset))
    return `a rated race of preset ${race.preset ?? 'none'}, not of a rated pool`;
  const unaided: GameOptions = { ...PRESETS[race.preset], hints: false };
  if (!sameOptions(race.options, { ...unaided }))
    return `a rated race with options ${JSON.stringify(race.options)}, rated play has ${JSON.stringify(unaided)}`;
  return null;
}

/** The deal a revealed key (v2) or deal number (v1) deals, formatted, or why there is none. */
function dealOf(reveal: NonNullable<RaceResults['dealReveal']>): string | Error {
  let dealt: Result<Deal, { message: string }>;
  if (reveal.algorithm === 'deal-v2') {
    if (reveal.key === null || !HEX64.test(reveal.key)) return new Error('the key is not 32 bytes of hex');
    dealt = dealFromKey(Buffer.from(reveal.key, 'hex'));
  } else {
    if (reveal.dealNumber === null) return new Error('no deal number');
    dealt = dealFromNumber(reveal.dealNumber);
  }
  return dealt.ok ? formatDeal(dealt.value) : new Error(dealt.error.message);
}

/**
 * Checks a finished race end to end (module comment) against `server`. Never throws for a failed check: a
 * check that cannot run (the server refuses, an answer does not parse) fails with the reason, and the checks
 * that depend on it fail as skipped.
 */
export async function verifyRace(options: RaceVerifyOptions): Promise<RaceVerifyReport> {
  const doFetch = options.fetch ?? fetch;
  const base = options.server.replace(/\/+$/, '');
  const code = options.code;
  const getJson = (path: string): Promise<unknown> => getJsonFrom(doFetch, base, path);
  const results: RaceCheckResult[] = [];
  const record = (check: RaceCheckName, ok: boolean, detail: string): boolean => {
    results.push({ check, ok, detail });
    return ok;
  };
  const skipRest = (reason: string): RaceVerifyReport => {
    for (const check of RACE_CHECKS)
      if (!results.some((r) => r.check === check)) record(check, false, `not run: ${reason}`);
    return { ok: false, checks: results };
  };

  // ---------- the reveal ----------
  let race: RaceView;
  let res: RaceResults;
  try {
    race = RaceSchema.parse(await getJson(`/api/races/${encodeURIComponent(code)}`));
    res = RaceResultsSchema.parse(await getJson(`/api/races/${encodeURIComponent(code)}/results`));
  } catch (e) {
    record('commitment-before', false, `no results: ${(e as Error).message}`);
    return skipRest('no results');
  }
  const reveal = res.dealReveal;
  if (reveal === null) {
    record('commitment-before', false, 'the race has no commitment');
    return skipRest('no commitment');
  }
  const commitment = reveal.dealCommitment;
  const before = options.commitment?.toLowerCase() ?? race.dealCommitment;
  const source = options.commitment !== undefined ? 'given' : "the room's";
  record(
    'commitment-before',
    before === commitment,
    before === null ? `no earlier commitment (${source})` : `${before} (${source}) vs ${commitment}`,
  );
  const hashed = sha256(reveal.preimage);
  record('preimage-hash', hashed === commitment, `SHA-256(preimage) = ${hashed}`);
  const source2 = reveal.algorithm === 'deal-v2' ? reveal.key : reveal.dealNumber;
  const fields = ['klondike-race', code, reveal.algorithm, String(source2)];
  const salted = reveal.salt !== null;
  const expected = (salted ? [...fields, reveal.salt] : fields).join('|');
  record(
    'preimage-fields',
    reveal.preimage === expected && (!salted || HEX64.test(reveal.salt ?? '')),
    salted
      ? `preimage ${reveal.preimage} (salt of 256 bits)`
      : `preimage ${reveal.preimage} (unsalted: a race stored before salts)`,
  );
  const dealt = dealOf(reveal);
  record(
    'key-deals-deal',
    dealt === res.deal,
    dealt instanceof Error
      ? dealt.message
      : `${reveal.algorithm === 'deal-v2' ? 'dealFromKey(key)' : 'dealFromNumber(number)'} = ${dealt}`,
  );

  const rated = ratedProblem(race);
  record(
    'race-options',
    rated === null,
    rated ?? (race.rated ? `rated ${race.preset ?? ''} with its options, hints off` : 'unrated: any options'),
  );

  // ---------- every racer's game ----------
  const problems: string[] = [];
  for (const r of res.results) {
    try {
      const replay = ReplaySchema.parse(await getJson(`/api/games/${encodeURIComponent(r.gameId)}/replay`));
      const problem = racerProblem(r, replay, race, res.deal);
      if (problem !== null) problems.push(problem);
    } catch (e) {
      problems.push(`${r.playerId} (${r.gameId}): ${(e as Error).message}`);
    }
  }
  if (res.results.length === 0) problems.push('the race has no results');
  record(
    'racer-replay',
    problems.length === 0,
    problems.length === 0
      ? `${res.results.length} racers' games replay to their stored results`
      : `${problems.length} do not: ${problems[0]}`,
  );
  return { ok: results.every((r) => r.ok), checks: results };
}
