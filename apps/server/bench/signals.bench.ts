/**
 * Fair-play signals benchmark and calibration (`pnpm bench:signals`; docs/fair-play.md "Flags", "Cost").
 *
 * (a) Cost: the signals of SIGNALS_GAMES (default 10 000) synthetic finished games — seeded deals
 *     (`dealFromNumber`), draw 1 and draw 3 alternately, each played by a visible-information player with
 *     human-paced gaps — timed on one core with no database: the think-time profile of every game, the
 *     solver-dependent signals (agreement, hidden knowledge; the server's default budget) of a sample of
 *     SIGNALS_SOLVER_SAMPLE games (default 500), since at ~0.1 s a game all of them would take tens of minutes.
 *     Reports ms a game, total time, peak RSS and heap.
 * (b) Calibration: each threshold's false-positive rate on honest sets — visible-information players (a
 *     fixed rule and a random one over turn-up moves) at a human pace (log-normal gaps, median 1.5–3 s) and
 *     at a fast human pace (median 500 ms) — and its detection rate on the cheating set: the solver's
 *     full-knowledge line played by a bot at machine speed (30–80 ms) and at a human pace (SIGNALS_CHEAT_GAMES,
 *     default 400, half each). Account rules group consecutive games of a set into accounts of
 *     `accountGames` (50) games. The e2e players' games are not included
 *     (their scripted games are few and not kept).
 */
import { loadavg } from 'node:os';
import { type Deal, type GameOptions, PRESETS, dealFromNumber, newGame } from '@klondike/rules';
import { testRandom } from '@klondike/rules/testing';
import { type GameAnalysis, analyseGame } from '../src/features/signals/analysis.js';
import { DEFAULT_SIGNAL_BUDGET } from '../src/features/signals/positions.js';
import {
  MIN_AGREEMENT_CHOICES,
  THRESHOLDS,
  binomialTail,
  flagsOf,
  isSuspect,
} from '../src/features/signals/thresholds.js';
import {
  logNormalGaps,
  mostFaceDown,
  oracleLine,
  randomPick,
  timedLog,
  visiblePlayer,
} from '../test/support/fair-play-players.js';
import { gitHead } from './run-info.js';
import { envNumber } from './settings.js';

const GAMES = envNumber('SIGNALS_GAMES', 10_000);
const SAMPLE = envNumber('SIGNALS_SOLVER_SAMPLE', 500);
const CHEATS = envNumber('SIGNALS_CHEAT_GAMES', 400);
const ACCOUNT = THRESHOLDS['hidden-knowledge'].accountGames;
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
const pct = (n: number, d: number): string =>
  d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)} % (${n}/${d})`;

/** One synthetic finished game. */
interface Game {
  readonly deal: Deal;
  readonly options: GameOptions;
  readonly log: ReturnType<typeof timedLog>;
}

const optionsOf = (n: number): GameOptions =>
  n % 2 === 0 ? PRESETS['classic-draw1'] : PRESETS['classic-draw3'];

function dealOf(n: number): Deal {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  return d.value;
}

/** An honest game of deal `n`: a visible-information player at a pace of median `medianMs`. */
function honestGame(n: number, random: () => number, medianMs: number): Game {
  const deal = dealOf(n);
  const options = optionsOf(n);
  const moves = visiblePlayer(newGame(deal, options), n % 3 === 0 ? mostFaceDown : randomPick(random));
  return { deal, options, log: timedLog(moves, logNormalGaps(random, medianMs, 0.6)) };
}

/** A cheating game of deal `n`: the oracle's line, at machine speed or a human pace; null without a line. */
function cheatGame(n: number, random: () => number, machine: boolean): Game | null {
  const deal = dealOf(n);
  const options = optionsOf(n);
  const line = oracleLine(newGame(deal, options));
  if (line === null) return null;
  const gap = machine
    ? () => 30 + Math.floor(random() * 50)
    : logNormalGaps(random, 1_500 + random() * 1_500, 0.6);
  return { deal, options, log: timedLog(line, gap) };
}

/** The flags of one analysed game as the server stores them. */
function gameFlags(a: GameAnalysis): string[] {
  const solverAgreement = a.agreementMoves >= MIN_AGREEMENT_CHOICES ? a.solverAgreement : null;
  return flagsOf({ ...a, solverAgreement }, false).map((f) => f.reason);
}

/** The account flags of consecutive groups of ACCOUNT games. */
function accountFlags(games: readonly GameAnalysis[]): {
  accounts: number;
  hidden: number;
  repeated: number;
} {
  let accounts = 0;
  let hidden = 0;
  let repeated = 0;
  for (let i = 0; i + ACCOUNT <= games.length; i += ACCOUNT) {
    const group = games.slice(i, i + ACCOUNT);
    accounts++;
    const c = group.reduce((s, g) => s + g.hiddenChoices, 0);
    const h = group.reduce((s, g) => s + g.hiddenHits, 0);
    const rule = THRESHOLDS['hidden-knowledge'];
    if (c >= rule.minChoices && binomialTail(h, c, rule.nullHitRate) < rule.maxTail) hidden++;
    const r = THRESHOLDS['repeated-signals'];
    const stored = group.slice(0, r.lastGames).map((g) => ({
      ...g,
      solverAgreement: g.agreementMoves >= MIN_AGREEMENT_CHOICES ? g.solverAgreement : null,
    }));
    if (stored.filter(isSuspect).length >= r.minGames) repeated++;
  }
  return { accounts, hidden, repeated };
}

/** One line per threshold: how many games of `set` passed it. */
function report(name: string, analysed: readonly GameAnalysis[]): void {
  const flags = analysed.map(gameFlags);
  const acc = accountFlags(analysed);
  const choices = analysed.reduce((s, g) => s + g.hiddenChoices, 0);
  const hits = analysed.reduce((s, g) => s + g.hiddenHits, 0);
  const agreeing = analysed.filter(
    (g) => g.agreementMoves >= MIN_AGREEMENT_CHOICES && g.solverAgreement !== null,
  );
  const meanAgreement =
    agreeing.reduce((s, g) => s + (g.solverAgreement ?? 0), 0) / Math.max(1, agreeing.length);
  console.log(`\n${name} (${analysed.length} games)`);
  for (const reason of ['machine-speed', 'regular-timing', 'solver-agreement', 'hidden-knowledge'] as const)
    console.log(
      `  ${reason.padEnd(18)} ${pct(flags.filter((f) => f.includes(reason)).length, analysed.length)}`,
    );
  console.log(`  any game flag      ${pct(flags.filter((f) => f.length > 0).length, analysed.length)}`);
  console.log(`  account hidden-knowledge (${ACCOUNT} games) ${pct(acc.hidden, acc.accounts)}`);
  console.log(`  account repeated-signals (${ACCOUNT} games) ${pct(acc.repeated, acc.accounts)}`);
  console.log(
    `  hidden choices ${choices}, hits ${hits} (${pct(hits, choices)}); mean agreement ${meanAgreement.toFixed(3)} over ${agreeing.length} games`,
  );
}

console.log(`signals benchmark — ${gitHead(process.cwd())}, node ${process.version}`);
console.log(`budget: ${JSON.stringify(DEFAULT_SIGNAL_BUDGET)}`);
const random = testRandom(20261206);
let peakHeap = 0;
const sampleHeap = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};

// (a) Cost: think-time of every game, solver signals of a sample.
const t0 = performance.now();
const honest: Game[] = [];
for (let n = 1; n <= GAMES; n++) {
  honest.push(honestGame(n, random, 1_500 + random() * 1_500));
  if (n % 500 === 0) sampleHeap();
}
const tGen = performance.now() - t0;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t1 = performance.now();
const c1 = cpuMs();
const timeOnly = honest.map((g, i) => {
  if (i % 500 === 0) sampleHeap();
  return analyseGame({ ...g, budget: false });
});
const tTime = performance.now() - t1;
const cTime = cpuMs() - c1;
const step = Math.max(1, Math.floor(GAMES / SAMPLE));
const t2 = performance.now();
const c2 = cpuMs();
const solved: GameAnalysis[] = [];
// Every step-th game, one off on every other pick: draw 1 and draw 3 (odd and even deals) alike.
for (let k = 0; k * step + 1 < GAMES && solved.length < SAMPLE; k++) {
  solved.push(analyseGame(honest[k * step + (k % 2)] as Game));
  sampleHeap();
}
const tSolved = performance.now() - t2;
const cSolved = cpuMs() - c2;
const moves = timeOnly.reduce((s, a) => s + a.moves, 0);
console.log(`\n(a) cost, one core, no database`);
console.log(
  `  ${GAMES} games generated in ${(tGen / 1000).toFixed(1)} s (${moves} moves, ${(moves / GAMES).toFixed(0)} a game)`,
);
console.log(
  `  think-time (replay + profile), every game: ${(tTime / 1000).toFixed(2)} s wall, ` +
    `${(tTime / GAMES).toFixed(3)} ms wall / ${(cTime / GAMES).toFixed(3)} ms CPU a game`,
);
console.log(
  `  full signals (solver budget), ${solved.length} games: ${(tSolved / 1000).toFixed(1)} s wall, ` +
    `${(tSolved / solved.length).toFixed(1)} ms wall / ${(cSolved / solved.length).toFixed(1)} ms CPU a game, ` +
    `${(solved.reduce((s, a) => s + a.solves, 0) / solved.length).toFixed(1)} solves a game`,
);
console.log(
  `  estimated for all ${GAMES} games: ${((cTime + (cSolved / solved.length) * GAMES) / 1000 / 60).toFixed(1)} min ` +
    `of CPU (one background thread)`,
);
console.log(
  `  load average while measuring: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// (b) Calibration.
const fast: GameAnalysis[] = [];
for (let n = GAMES + 1; n <= GAMES + SAMPLE; n++) fast.push(analyseGame(honestGame(n, random, 500)));
sampleHeap();
const cheatMachine: GameAnalysis[] = [];
const cheatHuman: GameAnalysis[] = [];
const t3 = performance.now();
for (let n = 1; cheatMachine.length + cheatHuman.length < CHEATS && n < 10 * CHEATS; n++) {
  const g = cheatGame(2 * GAMES + n, random, n % 2 === 0);
  if (g === null) continue;
  (n % 2 === 0 ? cheatMachine : cheatHuman).push(analyseGame(g));
  sampleHeap();
}
const tCheat = performance.now() - t3;
console.log(`\n(b) calibration (cheating set built and analysed in ${(tCheat / 1000).toFixed(1)} s)`);
report('honest, human pace: think-time flags over every game', timeOnly);
report('honest, human pace: all flags, solver sample', solved);
report('honest, fast human pace (median 500 ms)', fast);
report('cheating: oracle line at machine speed', cheatMachine);
report('cheating: oracle line at a human pace', cheatHuman);

const ru = process.resourceUsage();
console.log(
  `\npeak RSS ${mb(ru.maxRSS * 1024)}, peak heap used ${mb(peakHeap)}; total ${((performance.now() - t0) / 1000).toFixed(0)} s; ` +
    `CPU user ${(ru.userCPUTime / 1e6).toFixed(0)} s`,
);
