/**
 * solveMinimal (README.md "Minimal lines"): exact minimum lengths against an independent breadth-first
 * search with the rules package, lines replay to a win, lower bounds never exceed the minimum.
 * Node limits, except the time mode's tests, whose assertions hold at any speed of the machine.
 */
import { describe, expect, it } from 'vitest';
import {
  type GameOptions,
  type GameState,
  applyMove,
  isWon,
  legalMoves,
  newGame,
  resolveOptions,
} from '@klondike/rules';
import {
  DEFAULT_MINIMAL_NODES,
  DEFAULT_MINIMAL_STATES,
  MINIMAL_PROOF_SHARE,
  minimalPlan,
  solve,
  solveMinimal,
} from '../src/index.js';
import { minimalBound } from '../src/minimal.js';
import { deal, opts, replayStatus } from './helpers.js';

/** Plain key for the reference BFS: everything that decides legal moves, no symmetry. */
function plainKey(s: GameState): string {
  return JSON.stringify([
    s.tableau,
    s.foundations,
    s.stock,
    s.waste,
    s.lastPass,
    s.options.redeals === null ? 0 : s.recycles,
  ]);
}

/** Cards not on their foundations: each needs its own foundation move (R8), so a bound on the moves left. */
function cardsOff(s: GameState): number {
  return 52 - s.foundations.reduce((x, y) => x + y, 0);
}

/**
 * Reference: is there a win within `budget` public moves? Exhaustive depth-limited search over
 * `legalMoves` / `applyMove`, cut only by the cards-off-foundation bound, with a memo of budgets that
 * failed per position (no symmetry, no stock bound: independent of the code under test).
 */
function winsWithin(start: GameState, budget: number): boolean {
  const failed = new Map<string, number>();
  const go = (s: GameState, left: number): boolean => {
    if (isWon(s)) return true;
    if (cardsOff(s) > left) return false;
    const key = plainKey(s);
    if ((failed.get(key) ?? -1) >= left) return false;
    for (const m of legalMoves(s)) {
      const r = applyMove(s, m);
      if (r.ok && go({ ...r.value, history: null }, left - 1)) return true;
    }
    failed.set(key, left);
    return false;
  };
  return go(start, budget);
}

/** The position `k` public moves before the end of `solve`'s line for deal `n`. */
function nearEnd(n: number, options: GameOptions, k: number): GameState {
  const r = solve(deal(n), options, { maxNodes: 300_000, timeLimitMs: 60_000, shortenMs: 0 });
  if (r.verdict !== 'won' || r.line === undefined) throw new Error(`deal ${n} not won`);
  let s = newGame(deal(n), options);
  for (const m of r.line.slice(0, Math.max(0, r.line.length - k))) {
    const a = applyMove(s, m);
    if (!a.ok) throw new Error('replay');
    s = a.value;
  }
  return s;
}

// Positions whose minimum lies above the bound h (README.md H1 + H2) make the search do real work:
// (draw, deal, moves before the end of solve's line). Tableau moves (R4, R5), stock play (R10, R11).
const CASES: { name: string; options: GameOptions; n: number; k: number }[] = [
  { name: 'draw 1 (R10 one card, R11 unlimited)', options: opts(1), n: 2, k: 16 },
  { name: 'draw 1 (R10 one card, R11 unlimited)', options: opts(1), n: 4, k: 30 },
  { name: 'draw 3 (R10 three cards)', options: opts(3), n: 1, k: 30 },
  { name: 'draw 3 (R10 three cards)', options: opts(3), n: 4, k: 30 },
  { name: 'draw 1 (R10 one card, R11 unlimited)', options: opts(1), n: 1, k: 45 },
  {
    name: 'strict-draw3 (R11 two redeals: recycles keyed)',
    options: resolveOptions('strict-draw3'),
    n: 5,
    k: 30,
  },
  { name: 'draw3-last-pass (R16)', options: resolveOptions('draw3-last-pass'), n: 4, k: 30 },
  { name: 'draw 3 (R10 three cards)', options: opts(3), n: 1, k: 45 },
];

describe('solveMinimal: exact minimum against an exhaustive reference search', () => {
  // The reference search is exhaustive and slow (draw 3 deal 1, 45 from the end: ~80 s on an idle core,
  // over 120 s on a loaded one), so these tests get a longer guard than the package's default timeout.
  for (const c of CASES)
    it(
      `${c.name}: deal ${c.n}, ${c.k} moves before the end — minimum proven by a reference search, replays to a win`,
      { timeout: 600_000 },
      () => {
        const s = nearEnd(c.n, c.options, c.k);
        const r = solveMinimal(s, c.options, { maxNodes: 1_000_000, maxStates: 500_000 });
        expect(r.verdict).toBe('won');
        expect(r.optimal).toBe(true);
        const exact = r.line?.length ?? -1;
        // The reference search: a win within exactly that many moves, and none within one fewer.
        expect(winsWithin(s, exact)).toBe(true);
        expect(winsWithin(s, exact - 1)).toBe(false);
        expect(r.lowerBound).toBe(exact);
        expect(replayStatus(s, r.line ?? [])).toBe('won');
        // Along a shortest line the moves left from its i-th position are exactly exact − i: h never exceeds them.
        let at = s;
        (r.line ?? []).forEach((m, i) => {
          expect(minimalBound(at)).toBeLessThanOrEqual(exact - i);
          const a = applyMove(at, m);
          if (!a.ok) throw new Error('replay');
          at = a.value;
        });
      },
    );
});

describe('solveMinimal: limits', () => {
  it("a node limit too small for a proof gives solve's line, optimal false, and a lower bound not above the minimum", () => {
    const o = opts(1);
    const s = nearEnd(1, o, 60);
    const full = solveMinimal(s, o, { maxNodes: 2_000_000, maxStates: 1_000_000 });
    expect(full.optimal).toBe(true);
    const min = full.line?.length ?? -1;
    const cut = solveMinimal(s, o, { maxNodes: 5_000, fallback: { maxNodes: 300_000, shortenMs: 0 } });
    expect(cut.verdict).toBe('won');
    expect(cut.optimal).toBe(false);
    expect(replayStatus(s, cut.line ?? [])).toBe('won');
    expect(cut.lowerBound).toBeGreaterThanOrEqual(minimalBound(s));
    expect(cut.lowerBound).toBeLessThanOrEqual(min);
    expect(cut.line?.length).toBeGreaterThan(min);
  });

  it('a won position needs 0 moves; a whole deal under a small budget still returns a replaying line', () => {
    const o = opts(3);
    const won = nearEnd(2, o, 0);
    expect(solveMinimal(won, o)).toMatchObject({ verdict: 'won', line: [], optimal: true, lowerBound: 0 });
    const r = solveMinimal(deal(2), o, { maxNodes: 2_000, fallback: { maxNodes: 300_000, shortenMs: 0 } });
    expect(r.verdict).toBe('won');
    expect(replayStatus(newGame(deal(2), o), r.line ?? [])).toBe('won');
    expect(r.lowerBound).toBeGreaterThanOrEqual(52);
    expect(r.lowerBound).toBeLessThanOrEqual(r.line?.length ?? 0);
  });
});

describe('solveMinimal: node mode and time mode (minimalPlan)', () => {
  it('node mode: the default budget, a table of an eighth of the positions, no clock', () => {
    expect(minimalPlan({})).toEqual({
      timed: false,
      maxNodes: DEFAULT_MINIMAL_NODES,
      maxStates: DEFAULT_MINIMAL_STATES,
      timeMs: Infinity,
      proofMs: Infinity,
    });
    expect(minimalPlan({ maxNodes: 60_000_000 })).toMatchObject({
      maxNodes: 60_000_000,
      maxStates: 7_500_000,
    });
  });

  it('time mode: a larger time limit gets a longer proof and a larger table; maxNodes caps it', () => {
    const short = minimalPlan({ timeLimitMs: 10_000 });
    const long = minimalPlan({ timeLimitMs: 30_000 });
    expect(short.timed).toBe(true);
    expect(short.maxNodes).toBe(Infinity);
    expect(long.proofMs).toBeGreaterThan(short.proofMs);
    expect(long.proofMs).toBe(30_000 * MINIMAL_PROOF_SHARE);
    expect(long.proofMs).toBeLessThan(long.timeMs);
    expect(long.maxStates).toBeGreaterThan(short.maxStates);
    const capped = minimalPlan({ timeLimitMs: 30_000, maxNodes: 1_000_000 });
    expect(capped.maxNodes).toBe(1_000_000);
    expect(capped.maxStates).toBe(DEFAULT_MINIMAL_STATES);
    expect(minimalPlan({ timeLimitMs: 30_000, maxStates: 123 }).maxStates).toBe(123);
  });

  it('node mode answers twice the same (deterministic); time mode with ample time proves the same minimum', () => {
    const o = opts(1);
    const s = nearEnd(1, o, 60);
    const limits = { maxNodes: 50_000, fallback: { maxNodes: 300_000, timeLimitMs: Infinity, shortenMs: 0 } };
    const a = solveMinimal(s, o, limits);
    const b = solveMinimal(s, o, limits);
    expect({ ...a, ms: 0 }).toEqual({ ...b, ms: 0 });
    const full = solveMinimal(s, o, { maxNodes: 2_000_000 });
    expect(full.optimal).toBe(true);
    const timed = solveMinimal(s, o, { timeLimitMs: 600_000 });
    expect(timed).toMatchObject({ verdict: 'won', optimal: true, lowerBound: full.lowerBound });
    expect(replayStatus(s, timed.line ?? [])).toBe('won');
  });

  it('time mode with 1 ms still answers soundly: a won line replays, the bound never exceeds it', () => {
    for (const draw of [1, 3] as const) {
      const o = opts(draw);
      const r = solveMinimal(deal(4), o, { timeLimitMs: 1 });
      expect(['won', 'unknown']).toContain(r.verdict);
      if (r.verdict === 'won') {
        expect(replayStatus(newGame(deal(4), o), r.line ?? [])).toBe('won');
        expect(r.lowerBound).toBeLessThanOrEqual(r.line?.length ?? 0);
        expect(r.optimal).toBe(r.line?.length === r.lowerBound);
      }
    }
  });
});
