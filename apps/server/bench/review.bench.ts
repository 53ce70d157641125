/**
 * `pnpm bench:review`: what a game review costs the solver (docs/review.md). Lost games of about 120 moves
 * are reviewed with the review's own search (`searchLine`, features/review/review.ts), each verdict asked
 * of the real solver task (`runSolverTask`, the code a solver worker thread runs: a `position` task with
 * REVIEW_VERDICT_MS of wall-clock time, as the review service sends it), in this process, one verdict at a
 * time. Prints per game the plies, solver calls and CPU ms, then solver calls, CPU ms and wall ms at p50 /
 * p95 over the games, and the machine's load.
 *
 * Games: seeded deals (deal numbers from `FIRST`, default 1, classic draw 1 or `DRAW`=3) played by a simple
 * deterministic bot — a card to a foundation when one can go, else a waste card to the tableau, else a
 * tableau run that turns up a face-down card, else a draw (or a recycle) — until it is stuck (two whole
 * passes of the stock without another move) or has made `MOVES` moves (default 120, draws included). Games the bot
 * wins are skipped; the first `GAMES` (default 50) lost ones are reviewed. With `LOST=1` (default) a game
 * counts as lost only when `solve` proves its last position impossible within `VERDICT_MS` (checked before
 * the review, not counted): the bot often stops where a win is still possible, whose review is two verdicts;
 * `LOST=0` reviews every game the bot did not win. `VERDICT_MS` (default 2000, the default REVIEW_VERDICT_MS).
 */
import { cpus, loadavg } from 'node:os';
import {
  type GameAction,
  type GameState,
  type Move,
  applyMove,
  dealFromNumber,
  isWon,
  legalMoves,
  newGame,
  resolveOptions,
} from '@klondike/rules';
import { playedLine, searchLine } from '../src/features/review/review.js';
import runSolverTask from '../src/features/solve/task.js';

const GAMES = Number(process.env.GAMES ?? 50);
const FIRST = Number(process.env.FIRST ?? 1);
const MOVES = Number(process.env.MOVES ?? 120);
const DRAW = Number(process.env.DRAW ?? 1) as 1 | 3;
const VERDICT_MS = Number(process.env.VERDICT_MS ?? 2000);
const LOST = process.env.LOST !== '0';
const options = resolveOptions(DRAW === 1 ? 'classic-draw1' : 'classic-draw3');

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const quantile = (values: readonly number[], q: number): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] as number);
};

/** The bot's choice: foundation, waste to tableau, a run that turns up a card, a draw; null when stuck. */
function botMove(state: GameState): Move | null {
  const legal = legalMoves(state);
  const pile = legal.filter((m): m is Extract<Move, { type: 'move' }> => m.type === 'move');
  const up = pile.find((m) => m.to.startsWith('f') && !m.from.startsWith('f'));
  if (up) return up;
  const fromWaste = pile.find((m) => m.from === 'waste' && m.to.startsWith('t'));
  if (fromWaste) return fromWaste;
  const reveal = pile.find((m) => {
    if (!m.from.startsWith('t') || !m.to.startsWith('t')) return false;
    const src = state.tableau[Number(m.from.slice(1)) - 1];
    return src !== undefined && src.faceDown > 0 && m.count === src.cards.length - src.faceDown;
  });
  if (reveal) return reveal;
  return legal.find((m) => m.type === 'draw') ?? legal.find((m) => m.type === 'recycle') ?? null;
}

/** Plays deal `n` with the bot; the actions, and whether the bot won. */
function botGame(n: number): { actions: GameAction[]; won: boolean } | null {
  const d = dealFromNumber(n);
  if (!d.ok) return null;
  let state = newGame(d.value, options);
  const actions: GameAction[] = [];
  let idle = 0;
  while (actions.length < MOVES && !isWon(state)) {
    const m = botMove(state);
    if (m === null) break;
    const r = applyMove(state, m);
    if (!r.ok) throw new Error(`bot: ${r.error.code}`);
    state = { ...r.value, history: null };
    actions.push({ type: 'move', move: m });
    idle = m.type === 'draw' || m.type === 'recycle' ? idle + 1 : 0;
    // Stuck: two whole passes of the stock (and their recycles) without another move.
    if (idle > 2 * (state.stock.length + state.waste.length + 1)) break;
  }
  return { actions, won: isWon(state) };
}

console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? '?'}; load ${load()}`);
console.log(
  `${GAMES} lost bot games (${LOST ? 'last position proven impossible' : 'not won by the bot'}), draw ${DRAW}, at most ${MOVES} moves each, ${VERDICT_MS} ms per verdict (solver in this process)`,
);
console.log('| deal | plies | start | point of no return | decided | solver calls | CPU ms | wall ms |');
console.log('|---|---|---|---|---|---|---|---|');
const calls: number[] = [];
const cpuMs: number[] = [];
const wallMs: number[] = [];
const plies: number[] = [];
let decided = 0;
let withPoint = 0;
const load0 = load();
for (let n = FIRST; calls.length < GAMES; n++) {
  const g = botGame(n);
  if (g === null || g.won) continue;
  const d = dealFromNumber(n);
  if (!d.ok) continue;
  const line = playedLine(d.value, options, g.actions);
  if (line === null) throw new Error(`deal ${n}: the bot's log does not replay`);
  const last = line.states[line.states.length - 1];
  if (LOST && last !== undefined) {
    const end = runSolverTask({
      kind: 'position',
      state: { ...last, history: null },
      timeLimitMs: VERDICT_MS,
    });
    if (end.verdict !== 'impossible') continue;
  }
  const c0 = cpuNow();
  const t0 = performance.now();
  const search = await searchLine(line, false, (state) => {
    const r = runSolverTask({
      kind: 'position',
      state: { ...state, history: null },
      timeLimitMs: VERDICT_MS,
    });
    return Promise.resolve(
      r.line !== undefined ? { verdict: r.verdict, line: r.line } : { verdict: r.verdict },
    );
  });
  const cpu = cpuNow() - c0;
  const wall = performance.now() - t0;
  calls.push(search.solverCalls);
  cpuMs.push(cpu);
  wallMs.push(wall);
  plies.push(line.moves.length);
  if (search.decided) decided++;
  if (search.pointOfNoReturn !== null) withPoint++;
  const start = search.winnableAtStart === null ? 'unknown' : search.winnableAtStart ? 'winnable' : 'lost';
  console.log(
    `| ${n} | ${line.moves.length} | ${start} | ${search.pointOfNoReturn ?? '–'} | ${search.decided ? 'yes' : 'no'} | ${search.solverCalls} | ${cpu.toFixed(0)} | ${wall.toFixed(0)} |`,
  );
}
console.log('');
console.log(
  '| games | median plies | decided | point of no return found | solver calls p50 / p95 / max | CPU ms p50 / p95 | wall ms p50 / p95 | load (start → end) |',
);
console.log('|---|---|---|---|---|---|---|---|');
console.log(
  `| ${calls.length} | ${quantile(plies, 0.5)} | ${decided} | ${withPoint} | ${quantile(calls, 0.5)} / ${quantile(calls, 0.95)} / ${Math.max(...calls)} | ${quantile(cpuMs, 0.5).toFixed(0)} / ${quantile(cpuMs, 0.95).toFixed(0)} | ${quantile(wallMs, 0.5).toFixed(0)} / ${quantile(wallMs, 0.95).toFixed(0)} | ${load0} → ${load()} |`,
);
