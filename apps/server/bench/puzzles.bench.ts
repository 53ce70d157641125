/**
 * Puzzle generation benchmark (`pnpm bench:puzzles`; docs/puzzles.md "Generation", docs/benchmarks.md):
 * PUZZLES_GAMES (default 100) finished games — seeded deals (`dealFromNumber`) under four presets in turn
 * (classic draw 1 and draw 3, Vegas draw 1, strict draw 3), played by a simple bot (test/support/puzzle-players.ts `botGame`: the solver's line, with one
 * random slip late in every other game, after which a visible-information rule plays on, so about half the
 * games are won and half lost) — cut with the server's default limits on one core, no database. Prints candidates examined, candidates passing the fairness check (share), puzzles a game, CPU ms
 * a game, solver calls, and the load.
 */
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GameAction, type GameOptions, PRESETS, dealFromNumber, isWon, replay } from '@klondike/rules';
import { testRandom } from '@klondike/rules/testing';
import { DEFAULT_GENERATION_LIMITS, generatePuzzles } from '../src/features/puzzles/generation.js';
import { botGame } from '../test/support/puzzle-players.js';
import { gitHead } from './run-info.js';
import { envNumber } from './settings.js';

const GAMES = envNumber('PUZZLES_GAMES', 100);

/** The presets the games cycle through (two with unlimited redeals, two with limited ones). */
const PRESET_CYCLE = ['classic-draw1', 'classic-draw3', 'vegas-draw1', 'strict-draw3'] as const;
const optionsOf = (n: number): GameOptions =>
  PRESETS[PRESET_CYCLE[n % PRESET_CYCLE.length] ?? 'classic-draw1'];

function main(): void {
  const random = testRandom(56);
  let won = 0;
  let positions = 0;
  let candidates = 0;
  let fair = 0;
  let solves = 0;
  let nodes = 0;
  let cpuMs = 0;
  const goals = { 'only-move': 0, 'clear-the-table': 0 };
  const byGoal = {
    'only-move': { candidates: 0, fair: 0 },
    'clear-the-table': { candidates: 0, fair: 0 },
  };
  const rejected: Record<string, number> = {};
  const themes = new Map<string, number>();
  for (let n = 1; n <= GAMES; n++) {
    const d = dealFromNumber(1000 + n);
    if (!d.ok) throw new Error(d.error.message);
    const options = optionsOf(n);
    const moves = botGame(d.value, options, random, n % 8 >= 4);
    const actions: GameAction[] = moves.map((move) => ({ type: 'move', move }));
    const end = replay(d.value, options, actions);
    if (end.ok && isWon(end.value)) won++;
    const c0 = process.cpuUsage();
    const r = generatePuzzles(d.value, options, actions, DEFAULT_GENERATION_LIMITS);
    const c = process.cpuUsage(c0);
    cpuMs += (c.user + c.system) / 1000;
    if (r === null) throw new Error(`game ${n} does not replay`);
    positions += r.stats.positions;
    candidates += r.stats.candidates;
    fair += r.stats.fair;
    solves += r.stats.solves;
    nodes += r.stats.nodes;
    for (const g of ['only-move', 'clear-the-table'] as const) {
      byGoal[g].candidates += r.stats.byGoal[g].candidates;
      byGoal[g].fair += r.stats.byGoal[g].fair;
    }
    for (const [k, v] of Object.entries(r.stats.rejected)) rejected[k] = (rejected[k] ?? 0) + v;
    for (const p of r.puzzles) {
      goals[p.goal]++;
      for (const t of p.themes) themes.set(t, (themes.get(t) ?? 0) + 1);
    }
  }
  const puzzles = goals['only-move'] + goals['clear-the-table'];
  const out = {
    head: gitHead(dirname(fileURLToPath(import.meta.url)) + '/..'),
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    games: GAMES,
    won,
    limits: DEFAULT_GENERATION_LIMITS,
    positions,
    candidates,
    fair,
    fairShare: candidates === 0 ? null : +(fair / candidates).toFixed(3),
    byGoal,
    onlyMoveRejected: rejected,
    puzzles,
    goals,
    themes: Object.fromEntries(themes),
    puzzlesPerGame: +(puzzles / GAMES).toFixed(2),
    cpuMsPerGame: +(cpuMs / GAMES).toFixed(1),
    solverCalls: solves,
    solverCallsPerGame: +(solves / GAMES).toFixed(1),
    nodesPerGame: Math.round(nodes / GAMES),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main();
