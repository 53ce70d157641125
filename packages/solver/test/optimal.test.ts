/**
 * The engine's minimal search (src/optimal.ts, README.md "Minimal lines" O1–O6, H1–H6) and the packed
 * table (src/table.ts). Node limits only, never time limits.
 */
import {
  type GameOptions,
  type GameState,
  applyMove,
  newGame,
  parseDeal,
  resolveOptions,
} from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { Engine, type EnginePosition, type EngineRules } from '../src/engine.js';
import { solve, solveMinimal } from '../src/index.js';
import { aStarMinimal } from '../src/minimal.js';
import { BoundModel, optimalSearch } from '../src/optimal.js';
import { KeyTable } from '../src/table.js';
import { card, deal, opts, replayStatus, rng } from './helpers.js';

function enginePos(s: GameState): EnginePosition {
  return {
    piles: s.tableau.map((p) => p.cards.slice()),
    faceDown: s.tableau.map((p) => p.faceDown),
    foundations: s.foundations.slice(),
    talon: [...s.waste, ...s.stock.slice().reverse()],
    pointer: s.waste.length,
    recycles: s.recycles,
    lastPass: s.lastPass,
  };
}

function rulesOf(o: GameOptions): EngineRules {
  return {
    draw: o.draw,
    redealLimit: o.redeals === null ? -1 : o.redeals,
    wholePile: o.tableauMoves === 'wholePile',
    foundationToTableau: o.foundationToTableau,
  };
}

/** The position `k` public moves before the end of `solve`'s line for deal `n`. */
function nearEnd(n: number, o: GameOptions, k: number): GameState {
  const r = solve(deal(n), o, { maxNodes: 300_000, timeLimitMs: 60_000, shortenMs: 0 });
  if (r.verdict !== 'won' || r.line === undefined) throw new Error(`deal ${n} not won`);
  let s = newGame(deal(n), o);
  for (const m of r.line.slice(0, Math.max(0, r.line.length - k))) {
    const a = applyMove(s, m);
    if (!a.ok) throw new Error('replay');
    s = a.value;
  }
  return s;
}

describe('KeyTable (packed transposition table, P1)', () => {
  it('stores distinct keys exactly, refuses duplicates, keeps values through growth and never refuses a new key', () => {
    const t = new KeyTable(5, 3000, true);
    const key = new Uint32Array(5);
    const fill = (i: number): Uint32Array => {
      key[0] = i;
      key[1] = Math.imul(i, 2654435761) >>> 0;
      key[2] = 7;
      key[3] = i % 3;
      key[4] = i & 0xffff; // bit 31 left free, as the engine's keys do
      return key;
    };
    for (let i = 0; i < 5000; i++) {
      const slot = t.insert(fill(i));
      expect(t.inserted).toBe(true);
      t.setValue(slot, i * 3);
    }
    expect(t.size).toBe(5000); // past maxEntries: the caller stops, the table does not refuse
    expect(t.full).toBe(true);
    for (let i = 0; i < 5000; i++) {
      const slot = t.insert(fill(i));
      expect(t.inserted).toBe(false);
      expect(t.value(slot)).toBe(i * 3);
    }
    expect(t.add(fill(5000))).toBe(true);
    expect(t.add(fill(5000))).toBe(false);
  });

  it('holds at least 35 000 positions per MB of its arrays once at full size (5-word keys, load ≤ 0.85)', () => {
    const t = new KeyTable(5, 100_000);
    const key = new Uint32Array(5);
    for (let i = 0; i < 100_000; i++) {
      key[0] = i;
      key[4] = (i * 7) & 0x7fffffff;
      t.add(key);
    }
    expect(t.size).toBe(100_000);
    expect(t.size / (t.bytes / 1e6)).toBeGreaterThan(35_000);
  });
});

describe('BoundModel (h of the minimal search, H1–H7)', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 1, k: 45 },
    { o: opts(1), n: 4, k: 60 },
    { o: opts(3), n: 4, k: 30 },
    { o: resolveOptions('strict-draw3'), n: 5, k: 30 },
    { o: opts(3), n: 2, k: 55 },
    { o: opts(3), n: 6, k: 55 },
  ];
  for (const c of cases)
    it(`never exceeds the public moves left along a shortest line (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end)`, () => {
      const s = nearEnd(c.n, c.o, c.k);
      const rules = rulesOf(c.o);
      const pos = enginePos(s);
      const r = optimalSearch(rules, pos, 3_000_000, 2_000_000);
      expect(r.outcome).toBe('won');
      const path = r.path ?? [];
      const e = new Engine(rules, pos, { autoMoves: false });
      const full = new BoundModel(e, true);
      const plain = new BoundModel(e, false);
      let left = r.lowerBound;
      for (const m of path) {
        expect(full.bound(e)).toBeLessThanOrEqual(left);
        expect(plain.bound(e)).toBeLessThanOrEqual(full.bound(e));
        left -= e.moveCost(m);
        e.apply(m);
      }
      expect(left).toBe(0);
      expect(e.isWon()).toBe(true);
    });

  /** A hand-made position: the given piles, these foundation heights, every other card in the stock. */
  function handMade(piles: string[][], faceDown: number[], foundations: number[]): EnginePosition {
    const used = new Set<number>();
    const ps = piles.map((p) => p.map((code) => card(code)));
    for (const p of ps) for (const c of p) used.add(c);
    for (let s = 0; s < 4; s++)
      for (let r = 1; r <= (foundations[s] as number); r++) used.add(s * 13 + r - 1);
    const talon: number[] = [];
    for (let c = 0; c < 52; c++) if (!used.has(c)) talon.push(c);
    while (ps.length < 7) ps.push([]);
    while (faceDown.length < 7) faceDown.push(0);
    return { piles: ps, faceDown, foundations, talon, pointer: 0, recycles: 0 };
  }
  const RULES = rulesOf(opts(1));

  it('H3: a face-down card above a lower card of its suit; H4: a face-up one, once per pile', () => {
    // Pile 1: 2♠ 9♠ face down, 5♣ up (9♠ above 2♠: H3). Pile 2: 3♠ 6♣ face down, 8♠ up (H4).
    const pos = handMade(
      [
        ['2S', '9S', '5C'],
        ['3S', '6C', '8S'],
      ],
      [2, 2],
      [4, 13, 13, 1],
    );
    const e = new Engine(RULES, pos);
    // H1: 52 − 31 cards; H2: 15 stock cards, one draw each; H3 + H4: 2.
    expect(new BoundModel(e, false).bound(e)).toBe(21 + 15 + 2);
    expect(new BoundModel(e, true).bound(e)).toBe(21 + 15 + 2);
  });

  it('H5 (draw 3): the next draw groups of the stock count like the waste, and a recycle is one more move', () => {
    // Draw 3, talon J♠ K♠ Q♠ (one group: Q♠ on K♠ on J♠), spades up to 10, hearts up to Q, K♥ on the
    // tableau. K♠ and Q♠ both lie above the lower J♠ of their suit: each goes to the tableau (Q♠ onto
    // K♥, K♠ to an empty pile) — a recycle would only bring the same group back. Minimum: draw, Q♠ → K♥,
    // K♠ → empty pile, then four foundation moves = 7 = H1 4 + H2 1 + H5 min(2, 1 + ⌈2/3⌉).
    const rules = rulesOf(opts(3));
    const pos: EnginePosition = {
      piles: [[card('KH')], [], [], [], [], [], []],
      faceDown: [0, 0, 0, 0, 0, 0, 0],
      foundations: [13, 13, 12, 10],
      talon: [card('JS'), card('KS'), card('QS')],
      pointer: 0,
      recycles: 0,
    };
    const e = new Engine(rules, pos);
    expect(new BoundModel(e).bound(e)).toBe(7);
    const r = optimalSearch(rules, pos, 100_000, 100_000);
    expect(r.outcome).toBe('won');
    expect(r.lowerBound).toBe(7);
  });

  it('H6: two leavers that wait for each other cost one tableau move', () => {
    // 7♠ (on 4♣) needs 2♠, face down under 6♣; 6♣ (on 2♠) needs 4♣, face down under 7♠.
    const pos = handMade(
      [
        ['4C', '7S'],
        ['2S', '6C'],
      ],
      [1, 1],
      [3, 13, 13, 1],
    );
    const e = new Engine(RULES, pos);
    expect(new BoundModel(e, false).bound(e)).toBe(22 + 18);
    expect(new BoundModel(e, true).bound(e)).toBe(22 + 18 + 1);
    // …and the bound holds: the minimum from here is at least that (an independent reference: the search).
    const r = optimalSearch(RULES, pos, 2_000_000, 1_000_000);
    expect(r.outcome).toBe('won');
    expect(r.lowerBound).toBeGreaterThanOrEqual(41);
  });

  it('H7: three leavers waiting in a ring (no pair waits for each other) cost one tableau move', () => {
    // 7♠ needs 2♠ (under 6♣), 6♣ needs 4♣ (under 9♥), 9♥ needs 3♥ (under 7♠).
    const pos = handMade(
      [
        ['3H', '7S'],
        ['2S', '6C'],
        ['4C', '9H'],
      ],
      [1, 1, 1],
      [3, 13, 2, 1],
    );
    const e = new Engine(RULES, pos);
    expect(new BoundModel(e, false).bound(e)).toBe(33 + 27);
    expect(new BoundModel(e, true).bound(e)).toBe(33 + 27 + 1);
    // (Admissibility of H6/H7 on real positions: the 'never exceeds' tests above use the full bound.)
  });
});

describe('optimalSearch against the GameState A* (two independent minimal searches)', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 2, k: 30 },
    { o: opts(3), n: 2, k: 30 },
    { o: opts(1, { foundationToTableau: false }), n: 6, k: 30 },
    { o: opts(3, { tableauMoves: 'wholePile' }), n: 4, k: 25 },
  ];
  for (const c of cases)
    it(`same minimum (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end, R5 ${c.o.tableauMoves}, R9 ${c.o.foundationToTableau})`, () => {
      const s = nearEnd(c.n, c.o, c.k);
      const a = aStarMinimal({ ...s, history: null }, 2_000_000, 500_000);
      const r = solveMinimal(s, c.o, { maxNodes: 2_000_000 });
      expect(a.outcome).toBe('won');
      expect(r.optimal).toBe(true);
      expect(r.line?.length).toBe(a.line?.length);
      expect(replayStatus(s, r.line ?? [])).toBe('won');
    });
});

describe('O7: P9 (partial runs) in the minimal search keeps the minimum', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 1, k: 65 },
    { o: opts(1), n: 2, k: 65 },
    { o: opts(1), n: 6, k: 65 },
    { o: opts(3), n: 2, k: 55 },
    { o: opts(3), n: 4, k: 55 },
    { o: opts(3, { foundationToTableau: false }), n: 6, k: 55 },
  ];
  for (const c of cases)
    it(`R5: same minimum with and without P9 (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end, R9 ${c.o.foundationToTableau})`, () => {
      const s = nearEnd(c.n, c.o, c.k);
      const rules = rulesOf(c.o);
      const pos = enginePos(s);
      const on = optimalSearch(rules, pos, 3_000_000, 2_000_000);
      const off = optimalSearch(rules, pos, 3_000_000, 2_000_000, { partialRule: false });
      expect(on.outcome).toBe('won');
      expect(off.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
      // …with far fewer positions (3–12× on these; e.g. draw 1 deal 1: 9 390 against 81 078).
      expect(on.nodes).toBeLessThanOrEqual(off.nodes);
    });
});

describe('O9: low foundation cards go up and stay up in the minimal search, keeping the minimum', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 1, k: 60 },
    { o: opts(1), n: 6, k: 60 },
    { o: opts(3), n: 1, k: 55 },
    { o: opts(3), n: 4, k: 55 },
    { o: opts(3), n: 6, k: 55 },
  ];
  for (const c of cases)
    it(`R8 R9: same minimum with and without O9, fewer positions (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end)`, () => {
      const s = nearEnd(c.n, c.o, c.k);
      const rules = rulesOf(c.o);
      const pos = enginePos(s);
      // O11 generalises O9: off in both, so that O9 alone is compared.
      const on = optimalSearch(rules, pos, 3_000_000, 2_000_000, { safeFoundation: false });
      const off = optimalSearch(rules, pos, 3_000_000, 2_000_000, {
        lowFoundation: false,
        safeFoundation: false,
      });
      expect(on.outcome).toBe('won');
      expect(off.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
      expect(on.nodes).toBeLessThan(off.nodes);
    });

  it('R8 R9 R10: a whole draw 1 deal (deal 7) proven minimal (105 moves) with and without O9 and O10, fewer positions with each', () => {
    const o = opts(1);
    const pos = enginePos(newGame(deal(7), o));
    const rules = rulesOf(o);
    const run = (o9: boolean, o10: boolean) =>
      optimalSearch(rules, pos, 6_000_000, 6_000_000, {
        lowFoundation: o9,
        lowTalon: o10,
        safeFoundation: false,
      }); // O11 off (it covers O9)
    const both = run(true, true);
    const noO9 = run(false, true);
    const noO10 = run(true, false);
    for (const r of [both, noO9, noO10]) {
      expect(r.outcome).toBe('won');
      expect(r.lowerBound).toBe(105);
    }
    expect(both.nodes).toBeLessThan(noO9.nodes);
    expect(both.nodes).toBeLessThan(noO10.nodes);
    // The public API: proven optimal, 105 public moves, replaying to a win.
    const r = solveMinimal(deal(7), o, { maxNodes: 2_000_000, improveNodes: 0 });
    expect(r.optimal).toBe(true);
    expect(r.line?.length).toBe(105);
    expect(replayStatus(newGame(deal(7), o), r.line ?? [])).toBe('won');
  });

  it('R9: with O9 the engine offers no foundation card of rank ≤ lowest foundation + 1 back to the tableau', () => {
    const rules = rulesOf(opts(1));
    // Foundations C 3, D 4, H 5, S 6: the lowest is 3, so 4♦ (rank 4 ≤ 4) stays up; 5♥ and 6♠ may come down.
    const pos: EnginePosition = {
      piles: [[card('5S')], [card('6C')], [card('7C')], [card('KD')], [], [], []],
      faceDown: [0, 0, 0, 0, 0, 0, 0],
      foundations: [3, 4, 5, 6],
      talon: [],
      pointer: 0,
      recycles: 0,
    };
    const kinds = (lowFoundation: boolean): string[] =>
      new Engine(rules, pos, { autoMoves: false, lowFoundation })
        .listMoves()
        .filter((m) => (m & 7) === 5)
        .map((m) => `${(m >> 3) & 7}`);
    expect(kinds(false)).toContain('1'); // 4♦ onto 5♠
    expect(kinds(true)).not.toContain('1');
    expect(kinds(true)).toContain('2'); // 5♥ onto 6♣
  });
});

describe('O10: draw 1, the talon moves stop at the first low talon card that fits, keeping the minimum', () => {
  const cases: { n: number; k: number }[] = [
    { n: 1, k: 60 },
    { n: 2, k: 65 },
    { n: 6, k: 60 },
  ];
  for (const c of cases)
    it(`R10: same minimum with and without O10, no more positions (draw 1, deal ${c.n}, ${c.k} from the end)`, () => {
      const o = opts(1);
      const pos = enginePos(nearEnd(c.n, o, c.k));
      const rules = rulesOf(o);
      const on = optimalSearch(rules, pos, 3_000_000, 2_000_000);
      const off = optimalSearch(rules, pos, 3_000_000, 2_000_000, { lowTalon: false });
      expect(on.outcome).toBe('won');
      expect(off.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
      expect(on.nodes).toBeLessThanOrEqual(off.nodes);
    });

  it('R10: a fitting low card on the waste top is the only move; deeper, no talon move reaches past it', () => {
    const rules = rulesOf(opts(1));
    // Foundations all at 2: 3♥ fits and is low (rank 3 ≤ 2 + 1).
    const base = {
      piles: [[card('9S')], [card('8C')], [], [], [], [], []],
      faceDown: [0, 0, 0, 0, 0, 0, 0],
      foundations: [2, 2, 2, 2],
      talon: [card('7D'), card('3H'), card('5C'), card('8H')],
      recycles: 0,
    };
    // The minimal search's engine switches (no P10, no talon part of P2).
    const tuning = {
      exactPointer: true,
      talonRule: false,
      talonAuto: false,
      lowFoundation: true,
      lowTalon: true,
    };
    const onTop = new Engine(rules, { ...base, pointer: 2 }, tuning).listMoves();
    expect(onTop).toEqual([3 | (2 << 9)]); // K_W2F, q = 2
    const deeper = new Engine(rules, { ...base, pointer: 0 }, tuning).listMoves();
    const targets = deeper.filter((m) => (m & 7) === 3 || (m & 7) === 4).map((m) => (m >> 9) & 31);
    expect(targets).toContain(2); // 3♥ up
    expect(targets).toContain(1); // 7♦ onto 8♣, before it
    expect(targets.every((q) => q <= 2)).toBe(true); // not 8♥ (q = 4) onto 9♠
    const without = new Engine(rules, { ...base, pointer: 0 }, { ...tuning, lowTalon: false }).listMoves();
    expect(without.some((m) => (m & 7) === 4 && ((m >> 9) & 31) === 4)).toBe(true);
  });
});

describe('O11: closed foundation heights (O9 and O10 per suit), keeping the minimum', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 2, k: 65 },
    { o: opts(1), n: 4, k: 60 },
    { o: opts(1), n: 7, k: 65 },
    { o: opts(3), n: 1, k: 55 },
    { o: opts(3), n: 4, k: 55 },
  ];
  for (const c of cases)
    it(`R8 R9 R10: same minimum with and without O11, fewer positions (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end)`, () => {
      const pos = enginePos(nearEnd(c.n, c.o, c.k));
      const rules = rulesOf(c.o);
      const on = optimalSearch(rules, pos, 3_000_000, 2_000_000);
      const off = optimalSearch(rules, pos, 3_000_000, 2_000_000, { safeFoundation: false });
      expect(on.outcome).toBe('won');
      expect(off.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
      expect(on.nodes).toBeLessThan(off.nodes);
    });

  it('closed heights: at most the foundation, at most one above the lower of the other colour', () => {
    const rules = rulesOf(opts(1));
    const at = (foundations: number[]): number[] =>
      Array.from(
        new Engine(rules, {
          piles: [[], [], [], [], [], [], []],
          faceDown: [0, 0, 0, 0, 0, 0, 0],
          foundations,
          talon: [card('KC')],
          pointer: 0,
          recycles: 0,
        }).closedHeights(-1),
      );
    expect(at([5, 5, 5, 4])).toEqual([5, 5, 5, 4]);
    expect(at([9, 5, 6, 4])).toEqual([6, 5, 5, 4]); // C ≤ 1 + min(D, H); H ≤ 1 + min(C, S)
    expect(at([13, 0, 13, 13])).toEqual([1, 0, 2, 1]);
  });

  it('R8 R9: a top that O9 does not send up goes up alone under O11, and such foundation cards stay up', () => {
    const rules = rulesOf(opts(1));
    const tuning = {
      exactPointer: true,
      talonRule: false,
      talonAuto: false,
      lowFoundation: true,
      lowTalon: true,
    };
    // Foundations C 5, D 5, H 5, S 4: O9's lowest is 4, so 6♣ (rank 6 > 5) is not low; under O11 both red
    // closed heights are 5 ≥ 6 − 1 and C's own is 5, so nothing can ever lie on 6♣ nor come off under it.
    const pos: EnginePosition = {
      piles: [[card('6C')], [card('7H')], [card('9D')], [card('KD')], [], [], []],
      faceDown: [0, 0, 0, 0, 0, 0, 0],
      foundations: [5, 5, 5, 4],
      talon: [card('QS')],
      pointer: 0,
      recycles: 0,
    };
    const o9 = new Engine(rules, pos, tuning).listMoves();
    expect(o9.length).toBeGreaterThan(1);
    expect(new Engine(rules, pos, { ...tuning, safeFoundation: true }).listMoves()).toEqual([1]); // K_T2F, pile 0
    // Foundations C 6, D 5, H 5, S 4: C's closed height is 6, so 6♣ never comes down under O11 (O9: it may).
    const down: EnginePosition = {
      piles: [[card('7H')], [card('7D')], [card('KD')], [], [], [], []],
      faceDown: [0, 0, 0, 0, 0, 0, 0],
      foundations: [6, 5, 5, 4],
      talon: [card('QS')],
      pointer: 0,
      recycles: 0,
    };
    const f2t = (safeFoundation: boolean): number[] =>
      new Engine(rules, down, { ...tuning, autoMoves: false, safeFoundation })
        .listMoves()
        .filter((m) => (m & 7) === 5)
        .map((m) => (m >> 3) & 7);
    expect(f2t(false)).toContain(0); // 6♣ onto 7♥ or 7♦
    expect(f2t(true)).not.toContain(0);
  });
});

describe('O12: threshold jumps with branch and bound, keeping the minimum', () => {
  const cases: { o: GameOptions; n: number; minimum: number }[] = [
    { o: opts(1), n: 7, minimum: 105 },
    { o: opts(1), n: 18, minimum: 108 },
    { o: opts(3), n: 7, minimum: 103 },
  ];
  for (const c of cases)
    it(`R8 R10: whole deal ${c.n} (draw ${c.o.draw}) proven minimal (${c.minimum}) with and without O12, fewer positions with it`, () => {
      const pos = enginePos(newGame(deal(c.n), c.o));
      const rules = rulesOf(c.o);
      const run = (jumps: boolean) => optimalSearch(rules, pos, 6_000_000, 6_000_000, { jumps });
      const on = run(true);
      const off = run(false);
      for (const r of [on, off]) {
        expect(r.outcome).toBe('won');
        expect(r.lowerBound).toBe(c.minimum);
      }
      expect(on.nodes).toBeLessThan(off.nodes);
      expect(on.iterations).toBeLessThan(off.iterations);
    });

  it('R8: the same minimum as without O12 on positions 55–65 moves before the end (draw 1 and 3)', () => {
    for (const [o, n, k] of [
      [opts(1), 2, 65],
      [opts(1), 4, 60],
      [opts(3), 1, 55],
      [opts(3), 5, 55],
    ] as const) {
      const pos = enginePos(nearEnd(n, o, k));
      const rules = rulesOf(o);
      const on = optimalSearch(rules, pos, 3_000_000, 2_000_000);
      const off = optimalSearch(rules, pos, 3_000_000, 2_000_000, { jumps: false });
      expect(on.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
    }
  });

  it('a search stopped by its node limit reports a lower bound no higher than the minimum', () => {
    const o = opts(1);
    const pos = enginePos(newGame(deal(18), o));
    for (const limit of [50_000, 200_000, 600_000]) {
      const r = optimalSearch(rulesOf(o), pos, limit, 2_000_000);
      expect(r.outcome).toBe('aborted');
      expect(r.lowerBound).toBeLessThanOrEqual(108);
      expect(r.lowerBound).toBeGreaterThan(52);
    }
  });
});

describe('H5 draw groups (draw 3) against the independent GameState A* on talon-heavy positions', () => {
  it('R10 R11: random positions with 6–10 stock cards: same minimum, and h at the start never above it', () => {
    const random = rng(97);
    const o = opts(3);
    const base = newGame(deal(1), o);
    let compared = 0;
    for (let t = 0; t < 60 && compared < 25; t++) {
      // Foundations high enough that 9–13 cards are left; some go to the stock, the rest to piles of one card.
      const heights = [0, 1, 2, 3].map(() => 9 + Math.floor(random() * 5));
      const left: number[] = [];
      for (let su = 0; su < 4; su++)
        for (let r = (heights[su] as number) + 1; r <= 13; r++) left.push(su * 13 + r - 1);
      if (left.length < 8 || left.length > 16) continue;
      for (let i = left.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [left[i], left[j]] = [left[j] as number, left[i] as number];
      }
      const inPiles = Math.min(7, Math.max(1, left.length - 6 - Math.floor(random() * 5)));
      const piles = Array.from({ length: 7 }, (_, i) =>
        i < inPiles ? { cards: [left[i] as number], faceDown: 0 } : { cards: [], faceDown: 0 },
      );
      const s: GameState = {
        ...base,
        tableau: piles,
        foundations: heights,
        stock: left.slice(inPiles),
        waste: [],
        history: null,
      };
      const a = aStarMinimal(s, 3_000_000, 600_000);
      const r = optimalSearch(rulesOf(o), enginePos(s), 3_000_000, 2_000_000);
      if (a.outcome === 'aborted' || r.outcome === 'aborted') continue;
      expect(r.outcome, `position ${t}`).toBe(a.outcome);
      if (a.outcome === 'won') {
        expect(r.lowerBound, `position ${t}`).toBe(a.line?.length);
        const e = new Engine(rulesOf(o), enginePos(s));
        expect(new BoundModel(e).bound(e)).toBeLessThanOrEqual(r.lowerBound);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });
});

/**
 * Whole deals the minimal search proves (pinned by node limits, not time). The minimum is the search's own
 * proof: no independent solver here can check a whole deal; the bound's admissibility is what the tests
 * above check against exhaustive searches.
 */
const PINNED: { name: string; deal: string; o: GameOptions; minimum: number; nodes: number }[] = [
  {
    // classic-draw3 daily of 2026-11-10 with the bench secret (bench/daily-par.ts), candidate 0.
    name: 'draw 3 daily 2026-11-10 (bench secret)',
    deal: 'JS AC QD 5H 9C TD 8S 9D TC QH KS 2S TS JC 2H 5D 8H 3C AS KH KD 8C 4D 6H 4C JH AH 3H 6S TH 3S JD 4H 9S QC 3D 6D 9H 5S 2D 7H 4S 7C KC AD 2C QS 7D 7S 5C 6C 8D',
    o: opts(3),
    minimum: 103,
    nodes: 1_000_000,
  },
  // Deals of the rules package's seeded algorithm (version 1), found by `bench/scan.ts` (500 000 positions).
  {
    name: 'draw 3 deal 6',
    deal: '2C 8D JS KH 2S AH 5C 9S TD QH 7S 4C JD QS KD 8S KC 6D 5H 3D 9D QC AC QD 4S 4D 9C 8C 6C 2H JC 2D 7D AD 3S JH AS KS 3C 5D 6H 7H 7C 6S 3H TH TC 9H TS 8H 5S 4H',
    o: opts(3),
    minimum: 91,
    nodes: 1_000_000,
  },
  {
    name: 'draw 3 deal 29',
    deal: '4D QS 5C AS KC JH 5H 9S 3D 3H 2C TC JC AH 8D 2H 3S 2D KD 4H 8C 4S KH 9H 3C 9C 8S 6D TD TS 5D 5S 7D AC AD JS 6H 8H 4C QH KS TH 7S 7C JD 2S 6S QD 6C 9D QC 7H',
    o: opts(3),
    minimum: 114,
    nodes: 1_000_000,
  },
  {
    // The 16th won deal of bench/minimal.ts's set (BENCHMARKS.md "Issue 44, second round"): 1.98 M positions.
    name: 'draw 1 deal 18',
    deal: '9D KD TS 7H TD 9S 7S 2S KS JD JH 2D 8D 6D 9H 3D 4D 7C JC KH QS JS AS 5S 6S AH 4C 8C 4H KC 7D AC 9C TC 6H QD 5C 3H TH 8H 4S 5D QC 5H 3S QH AD 2C 8S 6C 2H 3C',
    o: opts(1),
    minimum: 108,
    nodes: 2_500_000,
  },
];

describe('whole deals proven minimal (pinned)', () => {
  for (const c of PINNED)
    it(`${c.name}: a line of exactly ${c.minimum} moves, proven shortest within ${c.nodes} positions, replays to a win`, () => {
      const d = parseDeal(c.deal);
      if (!d.ok) throw new Error(d.error.message);
      const r = solveMinimal(d.value, c.o, { maxNodes: c.nodes, improveNodes: 0 });
      expect(r.verdict).toBe('won');
      expect(r.optimal).toBe(true);
      expect(r.line?.length).toBe(c.minimum);
      expect(r.lowerBound).toBe(c.minimum);
      expect(replayStatus(newGame(d.value, c.o), r.line ?? [])).toBe('won');
      // A budget too small for the proof: a lower bound, never above the minimum.
      const small = solveMinimal(d.value, c.o, {
        maxNodes: 20_000,
        improveNodes: 0,
        fallback: { maxNodes: 200_000, timeLimitMs: 600_000 },
      });
      expect(small.optimal).toBe(false);
      expect(small.lowerBound).toBeLessThan(c.minimum);
    });
});

describe('O13: only expanded positions are stored', () => {
  const cases: { o: GameOptions; n: number; k: number }[] = [
    { o: opts(1), n: 2, k: 65 },
    { o: opts(3), n: 4, k: 55 },
  ];
  for (const c of cases)
    it(`R8 R10: the same positions, minimum and iterations, fewer stored (draw ${c.o.draw}, deal ${c.n}, ${c.k} from the end)`, () => {
      const s = nearEnd(c.n, c.o, c.k);
      const pos = enginePos(s);
      const on = optimalSearch(rulesOf(c.o), pos, 3_000_000, 2_000_000);
      const off = optimalSearch(rulesOf(c.o), pos, 3_000_000, 2_000_000, { leaves: false });
      expect(on.outcome).toBe('won');
      expect(on.lowerBound).toBe(off.lowerBound);
      expect(on.nodes).toBe(off.nodes);
      expect(on.iterations).toBe(off.iterations);
      expect(on.states).toBeLessThan(off.states);
    });

  it('R8 R10: whole deal 7 (draw 1) proven minimal (105) with a third of the stored positions', () => {
    const o = opts(1);
    const pos = enginePos(newGame(deal(7), o));
    const on = optimalSearch(rulesOf(o), pos, 3_000_000, 2_000_000);
    const off = optimalSearch(rulesOf(o), pos, 3_000_000, 2_000_000, { leaves: false });
    expect(on.outcome).toBe('won');
    expect(off.outcome).toBe('won');
    expect(on.lowerBound).toBe(105);
    expect(off.lowerBound).toBe(105);
    expect(on.nodes).toBe(off.nodes);
    // 52 969 against 177 210 positions stored.
    expect(on.states * 3).toBeLessThan(off.states);
  });
});

describe('optimalSearch limits: a full table, an unfinished iteration', () => {
  it('R8 R10: a table too small for the proof keeps searching without storing, to the same minimum', () => {
    const o = opts(1);
    const pos = enginePos(nearEnd(1, o, 65));
    const roomy = optimalSearch(rulesOf(o), pos, 3_000_000, 2_000_000);
    const small = optimalSearch(rulesOf(o), pos, 3_000_000, 200);
    expect(roomy.outcome).toBe('won');
    expect(small.outcome).toBe('won');
    expect(small.lowerBound).toBe(roomy.lowerBound);
    expect(small.states).toBeLessThanOrEqual(200);
    expect(roomy.states).toBeGreaterThan(200);
    // The positions it could not store are searched again when reached again.
    expect(small.nodes).toBeGreaterThan(roomy.nodes);
  });

  it('R8 R10: a line found by an iteration the node limit stopped comes back as an upper bound (draw 1 deal 18)', () => {
    const c = PINNED.find((x) => x.name === 'draw 1 deal 18');
    if (c === undefined) throw new Error('pinned deal missing');
    const d = parseDeal(c.deal);
    if (!d.ok) throw new Error(d.error.message);
    const s = newGame(d.value, c.o);
    // 700 000 positions: the last iteration has found a line and is still looking for a cheaper one.
    const r = optimalSearch(rulesOf(c.o), enginePos(s), 700_000, 2_000_000);
    expect(r.outcome).toBe('aborted');
    expect(r.path).toBeDefined();
    const fallback = { maxNodes: 200_000, timeLimitMs: 600_000, shortenMs: 0 };
    const m = solveMinimal(d.value, c.o, { maxNodes: 700_000, improveNodes: 0, fallback });
    const plain = solve(d.value, c.o, fallback);
    expect(m.verdict).toBe('won');
    expect(m.optimal).toBe(false);
    expect(m.lowerBound).toBe(r.lowerBound);
    expect(m.lowerBound).toBeLessThan(c.minimum);
    expect(m.line?.length).toBeGreaterThanOrEqual(c.minimum);
    // Far shorter than the fallback's line, which is all an unfinished proof returned before.
    expect(m.line?.length).toBeLessThan(plain.line?.length ?? 0);
    expect(replayStatus(s, m.line ?? [])).toBe('won');
  });
});

describe('solveMinimal on whole deals (node limits)', () => {
  it('returns a replaying line no longer than solve’s shortened one and a lower bound below it (draw 1, deal 4)', () => {
    const o = opts(1);
    const r = solveMinimal(deal(4), o, {
      maxNodes: 300_000,
      improveNodes: 400_000,
      fallback: { maxNodes: 300_000, shortenMs: 0 },
    });
    const plain = solve(deal(4), o, { maxNodes: 300_000, shortenMs: 0 });
    expect(r.verdict).toBe('won');
    expect(replayStatus(newGame(deal(4), o), r.line ?? [])).toBe('won');
    expect(r.line?.length).toBeLessThan(plain.line?.length ?? 0);
    expect(r.lowerBound).toBeGreaterThan(80);
    expect(r.lowerBound).toBeLessThanOrEqual(r.line?.length ?? 0);
  });

  it('a deal proven impossible stays impossible (draw 1, deal 3)', () => {
    const o = opts(1);
    expect(solve(deal(3), o, { maxNodes: 5_000_000, timeLimitMs: 600_000 }).verdict).toBe('impossible');
    const fallback = { maxNodes: 5_000_000, timeLimitMs: 600_000 }; // node-limited, not time-limited
    expect(solveMinimal(deal(3), o, { maxNodes: 50_000, improveNodes: 0, fallback }).verdict).toBe(
      'impossible',
    );
  });
});
