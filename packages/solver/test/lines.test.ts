/**
 * Over seeded deals: every `won` line replays to a win with the rules package, and the verdicts of rule
 * variants that dominate one another never contradict (a wrong-verdict detector).
 */
import { type GameOptions, type GameState, applyMove, isWon, legalMoves, newGame } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { type Verdict, solve } from '../src/index.js';
import { deal, opts, replayStatus, rng } from './helpers.js';

// Verdict checks: no time spent on shortening lines (tested on its own below).
// Node limits, not time limits: the same verdicts on a fast idle machine and a loaded CI one (about
// 60 ms of search here; the generous time limit is only a safety net).
const LIMIT = { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 };

describe('won lines replay to a win (R12)', () => {
  // [name, options, deals, fewest wins expected within the small time limit]
  const variants: [string, GameOptions, number, number][] = [
    ['draw 1', opts(1), 150, 60],
    ['draw 3', opts(3), 150, 45],
    ['draw 1, one pass (vegas)', opts(1, { redeals: 0 }), 30, 1],
    ['draw 3, 2 redeals', opts(3, { redeals: 2 }), 30, 3],
    ['draw 3, wholePile (bicycle)', opts(3, { tableauMoves: 'wholePile' }), 30, 10],
    ['draw 1, no foundation-to-tableau', opts(1, { foundationToTableau: false }), 30, 10],
  ];
  for (const [name, o, count, minWon] of variants) {
    it(`R5 R9 R10 R11 R12: ${name}, deals 1…${count}`, () => {
      let won = 0;
      for (let n = 1; n <= count; n++) {
        const d = deal(n);
        const r = solve(d, o, LIMIT);
        if (r.verdict !== 'won') continue;
        won++;
        expect(replayStatus(newGame(d, o), r.line ?? []), `deal ${n}`).toBe('won');
      }
      expect(won).toBeGreaterThanOrEqual(minWon);
    });
  }
});

describe('line shortening post-pass', () => {
  it('R12: shortened lines replay to a win and are never longer, under every variant', () => {
    const variants = [opts(1), opts(3), opts(1, { redeals: 0 }), opts(3, { redeals: 2 })];
    let shorter = 0;
    let compared = 0;
    for (const o of variants) {
      for (let n = 1; n <= 8; n++) {
        const d = deal(n);
        const a = solve(d, o, { timeLimitMs: 60_000, maxNodes: 100_000, shortenMs: 0 });
        if (a.verdict !== 'won') continue;
        const b = solve(d, o, { timeLimitMs: 60_000, maxNodes: 100_000, shortenMs: 100 });
        expect(b.verdict).toBe('won');
        expect(replayStatus(newGame(d, o), b.line ?? []), `deal ${n}`).toBe('won');
        expect((b.line ?? []).length).toBeLessThanOrEqual((a.line ?? []).length);
        compared++;
        if ((b.line ?? []).length < (a.line ?? []).length) shorter++;
      }
    }
    expect(compared).toBeGreaterThan(8);
    expect(shorter).toBeGreaterThan(0);
  });
});

/** Pairs (stronger, weaker): every win under the weaker rules is a win under the stronger ones. */
const DOMINANCE: [string, GameOptions, GameOptions][] = [
  // Draw 1 unlimited reaches every talon card at any time, so every draw-3 line (its draws regrouped) is
  // a draw-1 line: each draw-3 waste top is reachable in draw 1 and leaves the same talon.
  ['draw 1 ⊇ draw 3 (unlimited)', opts(1), opts(3)],
  ['unlimited ⊇ 2 redeals (draw 3)', opts(3), opts(3, { redeals: 2 })],
  ['unlimited ⊇ 0 redeals (draw 1)', opts(1), opts(1, { redeals: 0 })],
  ['foundationToTableau on ⊇ off', opts(3), opts(3, { foundationToTableau: false })],
  ['anyRun ⊇ wholePile', opts(3), opts(3, { tableauMoves: 'wholePile' })],
];

describe('monotonicity cross-checks (R5, R9, R10, R11)', () => {
  for (const [name, strong, weak] of DOMINANCE) {
    it(`never impossible under the stronger rules when won under the weaker: ${name}`, () => {
      for (let n = 1; n <= 40; n++) {
        const d = deal(n);
        const a: Verdict = solve(d, strong, LIMIT).verdict;
        const b: Verdict = solve(d, weak, LIMIT).verdict;
        expect(a === 'impossible' && b === 'won', `deal ${n}: ${a} vs ${b}`).toBe(false);
      }
    });
  }
});

/** A random playout that prefers foundation moves, then turn-ups; returns true on a win. */
function playout(start: GameState, random: () => number, maxMoves: number): boolean {
  let s = start;
  for (let i = 0; i < maxMoves; i++) {
    if (isWon(s)) return true;
    const legal = legalMoves(s);
    if (legal.length === 0) return false;
    const found = legal.filter((m) => m.type === 'move' && m.to.startsWith('f') && !m.from.startsWith('f'));
    const pool = found.length > 0 && random() < 0.8 ? found : legal;
    const r = applyMove(s, pool[Math.floor(random() * pool.length)] as (typeof legal)[number]);
    if (!r.ok) return false;
    s = r.value;
  }
  return isWon(s);
}

describe('impossible verdicts survive random playouts', () => {
  it('R13: no random playout wins a deal proven impossible (draw 3, unlimited)', () => {
    const o = opts(3);
    const random = rng(7);
    let checked = 0;
    for (let n = 1; n <= 60 && checked < 5; n++) {
      const d = deal(n);
      if (solve(d, o, { maxNodes: 750_000, timeLimitMs: 60_000, shortenMs: 0 }).verdict !== 'impossible')
        continue;
      checked++;
      for (let k = 0; k < 20; k++) expect(playout(newGame(d, o), random, 400), `deal ${n}`).toBe(false);
    }
    expect(checked).toBeGreaterThan(0);
  });
});
