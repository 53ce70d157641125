/**
 * One test (or more) per pruning rule of README.md "Pruning rules" (P1 … P12).
 */
import { type GameOptions, type GameState, applyMove, newGame } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import {
  Engine,
  type EnginePosition,
  type EngineRules,
  type EngineTuning,
  K_F2T,
  K_T2F,
  K_T2T,
  K_W2F,
  moveA,
  moveB,
  moveKind,
  talonReach,
} from '../src/engine.js';
import { type SolveTuning, solve } from '../src/index.js';
import { KeyTable } from '../src/table.js';
import { card, deal, opts, rng } from './helpers.js';

const RULES_1: EngineRules = { draw: 1, redealLimit: -1, wholePile: false, foundationToTableau: true };

function pos(
  piles: { cards: string[]; faceDown: number }[],
  foundations: number[],
  talon: string[] = [],
  pointer = 0,
): EnginePosition {
  const p = [...piles];
  while (p.length < 7) p.push({ cards: [], faceDown: 0 });
  return {
    piles: p.map((x) => x.cards.map(card)),
    faceDown: p.map((x) => x.faceDown),
    foundations,
    talon: talon.map(card),
    pointer,
    recycles: 0,
  };
}

/**
 * A pruning rule loses no verdict and saves positions: draw 3 deals 1…40 are solved with the default tuning
 * and with `without` (the rule off), each with 150 000 positions; every deal both decide gets the same
 * verdict, and more than 30 are compared. Then draw 3 deal 20, which is impossible, is proven both ways,
 * with fewer positions when the rule is on.
 */
function expectSameVerdictsFewerPositions(without: SolveTuning): void {
  let compared = 0;
  for (let n = 1; n <= 40; n++) {
    const lim = { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 };
    const a = solve(deal(n), opts(3), lim).verdict;
    const b = solve(deal(n), opts(3), lim, without).verdict;
    if (a !== 'unknown' && b !== 'unknown') {
      expect(a, `draw 3 deal ${n}`).toBe(b);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(30);
  const lim = { maxNodes: 3_000_000, timeLimitMs: 600_000, shortenMs: 0, maxStates: 3_000_000 };
  const on = solve(deal(20), opts(3), lim);
  const off = solve(deal(20), opts(3), lim, without);
  expect(on.verdict).toBe('impossible');
  expect(off.verdict).toBe('impossible');
  expect(on.nodes).toBeLessThan(off.nodes);
}

/**
 * The position after a random playout from deal `n`'s start: 10 … 9 + `spread` moves drawn with `random`
 * (fewer when no move is left), made by an engine with `tuning` (pruning rules off, so that any position
 * the rules allow can be reached).
 */
function playout(
  rules: EngineRules,
  n: number,
  random: () => number,
  spread: number,
  tuning: EngineTuning,
): EnginePosition {
  const e = new Engine(rules, startOf(n), tuning);
  const steps = 10 + Math.floor(random() * spread);
  for (let k = 0; k < steps; k++) {
    const moves = e.listMoves();
    if (moves.length === 0) break;
    e.apply(moves[Math.floor(random() * moves.length)] as number);
  }
  return e.snapshot();
}

/** The engine's verdict from `p` with `tuning`: `won`, `impossible`, or `aborted` past 80 000 positions. */
function verdictWithin(rules: EngineRules, p: EnginePosition, tuning: EngineTuning): string {
  const x = new Engine(rules, p, tuning);
  const seen = new KeyTable(x.keyWidth, 1_000_000);
  seen.add(x.computeKey());
  return x.search(seen, () => x.nodes > 80_000);
}

/** Start position of a deal as the engine holds it. */
function startOf(n: number): EnginePosition {
  const s = newGame(deal(n), opts(1));
  return {
    piles: s.tableau.map((p) => p.cards.slice()),
    faceDown: s.tableau.map((p) => p.faceDown),
    foundations: [0, 0, 0, 0],
    talon: s.stock.slice().reverse(),
    pointer: 0,
    recycles: 0,
  };
}

describe('P1 transposition table: keys are exact', () => {
  /** A canonical text of the position: piles without face-down cards sorted, the rest by index. */
  function canonical(e: Engine): string {
    const s = e.snapshot();
    const free: string[] = [];
    const fixed: string[] = [];
    for (let i = 0; i < 7; i++) {
      const t = `${s.faceDown[i]}:${(s.piles[i] as number[]).join(',')}`;
      if (s.faceDown[i] === 0) free.push(t);
      else fixed.push(`${i}/${t}`);
    }
    free.sort();
    const L = s.talon.length;
    const p = s.pointer % 3 === 0 || s.pointer === L ? 0 : s.pointer; // P7, draw 3 unlimited
    return `${free.join('|')}#${fixed.join('|')}#${s.foundations.join(',')}#${s.talon.join(',')}@${p}`;
  }

  it('random walks: equal keys exactly when the canonical positions are equal', () => {
    const rules: EngineRules = { ...RULES_1, draw: 3 };
    const byKey = new Map<string, string>();
    const byCanon = new Map<string, string>();
    const random = rng(11);
    for (let n = 1; n <= 30; n++) {
      const e = new Engine(rules, startOf(n), { autoMoves: false, foundationRule: false });
      for (let step = 0; step < 120; step++) {
        const moves = e.listMoves();
        if (moves.length === 0) break;
        e.apply(moves[Math.floor(random() * moves.length)] as number);
        const key = Array.from(e.computeKey()).join(',');
        const c = canonical(e);
        expect(byKey.get(key) ?? c).toBe(c);
        expect(byCanon.get(c) ?? key).toBe(key);
        byKey.set(key, c);
        byCanon.set(c, key);
      }
    }
    expect(byKey.size).toBeGreaterThan(1000);
  });

  it('apply then undo restores the position exactly', () => {
    const random = rng(5);
    for (let n = 1; n <= 20; n++) {
      const e = new Engine({ ...RULES_1, redealLimit: 3 }, startOf(n), { autoMoves: false });
      for (let step = 0; step < 80; step++) {
        const moves = e.listMoves();
        if (moves.length === 0) break;
        for (const m of moves) {
          const before = JSON.stringify(e.snapshot());
          const u = e.apply(m);
          e.undo(m, u);
          expect(JSON.stringify(e.snapshot())).toBe(before);
        }
        e.apply(moves[Math.floor(random() * moves.length)] as number);
      }
    }
  });

  it('the key kept up to date by apply/undo equals the key computed from the piles (random walks, R9 on)', () => {
    const random = rng(7);
    let checked = 0;
    for (const draw of [1, 3] as const) {
      for (let n = 1; n <= 20; n++) {
        const t = { autoMoves: false, partialRule: false, foundationRule: false };
        const e = new Engine({ ...RULES_1, draw }, startOf(n), t);
        const f = new Engine({ ...RULES_1, draw }, startOf(n), t);
        const same = (): void => {
          const a = Array.from(e.computeKey());
          expect(a).toEqual(Array.from(f.computeKeyFull()));
          checked++;
        };
        for (let step = 0; step < 100; step++) {
          const moves = e.listMoves();
          if (moves.length === 0) break;
          for (const m of moves) {
            const u = e.apply(m);
            f.apply(m);
            same();
            e.undo(m, u);
            f.undo(m, u);
            same();
          }
          const m = moves[Math.floor(random() * moves.length)] as number;
          e.apply(m);
          f.apply(m);
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('P2 safe automatic foundation moves', () => {
  it('R8: an Ace or a Two on a tableau top goes up as the only move', () => {
    const e = new Engine(
      RULES_1,
      pos(
        [
          { cards: ['KS', 'AH'], faceDown: 1 },
          { cards: ['KD'], faceDown: 0 },
        ],
        [0, 0, 0, 0],
        ['QS'],
      ),
    );
    expect(e.listMoves().map(moveKind)).toEqual([K_T2F]);
    const e2 = new Engine(
      RULES_1,
      pos(
        [
          { cards: ['2S'], faceDown: 0 },
          { cards: ['KD'], faceDown: 0 },
        ],
        [0, 0, 0, 1],
        ['QS'],
      ),
    );
    expect(e2.listMoves().map(moveKind)).toEqual([K_T2F]);
  });

  it('R9: with foundation-to-tableau on, a Three is never forced up', () => {
    const e = new Engine(RULES_1, pos([], [13, 2, 13, 13]));
    expect(e.isSafeAuto(card('3D'))).toBe(false);
  });

  it('R9: with foundation-to-tableau off, a card goes up when both opposite-colour foundations hold rank − 1', () => {
    const off: EngineRules = { ...RULES_1, foundationToTableau: false };
    expect(new Engine(off, pos([], [4, 4, 3, 4])).isSafeAuto(card('5D'))).toBe(true);
    expect(new Engine(off, pos([], [3, 4, 3, 4])).isSafeAuto(card('5D'))).toBe(false);
    expect(new Engine(off, pos([], [4, 3, 4, 0])).isSafeAuto(card('5C'))).toBe(false);
  });

  it('draw 1 unlimited: a safe talon card goes up as the only move, from anywhere in the talon', () => {
    const e = new Engine(RULES_1, pos([{ cards: ['KD'], faceDown: 0 }], [0, 0, 0, 0], ['QS', 'AH', '5C'], 3));
    const moves = e.listMoves();
    expect(moves.map(moveKind)).toEqual([K_W2F]);
    // draw 3: not forced (talon order matters); A♥ is the third card drawn, Q♠ can go on K♦.
    const e3 = new Engine(
      { ...RULES_1, draw: 3 },
      pos([{ cards: ['KD'], faceDown: 0 }], [0, 0, 0, 0], ['5C', '9D', 'AH', 'QS'], 0),
    );
    expect(e3.listMoves().length).toBeGreaterThan(1);
  });

  it('verdicts agree with and without automatic moves (deals 1…25, decided ones)', () => {
    for (const o of [opts(1), opts(3), opts(1, { foundationToTableau: false })]) {
      for (let n = 1; n <= 25; n++) {
        const a = solve(deal(n), o, { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 }).verdict;
        const b = solve(
          deal(n),
          o,
          { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 },
          { autoMoves: false },
        ).verdict;
        if (a !== 'unknown' && b !== 'unknown') expect(a, `deal ${n}`).toBe(b);
      }
    }
  });
});

describe('P3 stock macro moves', () => {
  /** Waste sizes reachable with draws and recycles under the rules package, with the fewest recycles. */
  function bruteForce(L: number, p: number, draw: 1 | 3, redeals: number | null): Map<number, number> {
    const codes = ['2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', 'TC', 'JC', 'QC'].slice(0, L);
    const o: GameOptions = opts(draw, { redeals });
    const base = newGame(deal(1), o);
    const talon = codes.map(card);
    const start: GameState = {
      ...base,
      tableau: base.tableau.map(() => ({ cards: [], faceDown: 0 })),
      waste: talon.slice(0, p),
      stock: talon.slice(p).reverse(),
    };
    const best = new Map<number, number>();
    const seen = new Set<string>();
    const queue: GameState[] = [start];
    while (queue.length > 0) {
      const s = queue.shift() as GameState;
      const k = `${s.waste.length}/${s.recycles}`;
      if (seen.has(k) || s.recycles > 2) continue;
      seen.add(k);
      const q = s.waste.length;
      if (q > 0 && (best.get(q) ?? 99) > s.recycles) best.set(q, s.recycles);
      for (const m of [{ type: 'draw' }, { type: 'recycle' }] as const) {
        const r = applyMove(s, m);
        if (r.ok) queue.push(r.value);
      }
    }
    return best;
  }

  it('R10 R11: the reachable waste tops and their recycle flags match the rules package', () => {
    const out = new Int32Array(64);
    for (const draw of [1, 3] as const) {
      for (const redeals of [null, 0] as const) {
        for (let L = 0; L <= 11; L++) {
          for (let p = 0; p <= L; p++) {
            const expected = bruteForce(L, p, draw, redeals);
            const k = talonReach(L, p, draw, redeals === null, out);
            const got = new Map<number, number>();
            for (let x = 0; x < k; x++) got.set((out[x] as number) & 31, (out[x] as number) >> 5);
            expect(got, `draw ${draw} redeals ${redeals} L ${L} p ${p}`).toEqual(expected);
          }
        }
      }
    }
  });
});

describe('P4 P5 empty piles', () => {
  it('R7: a King-headed run moves only to the first empty pile', () => {
    const e = new Engine(
      RULES_1,
      pos(
        [
          { cards: [], faceDown: 0 },
          { cards: ['5C', 'KH', 'QS'], faceDown: 1 },
          { cards: [], faceDown: 0 },
          { cards: ['2D'], faceDown: 0 },
        ],
        [1, 1, 1, 1],
      ),
      { autoMoves: false },
    );
    const t2t = e.listMoves().filter((m) => moveKind(m) === K_T2T);
    expect(t2t.map((m) => [moveA(m), moveB(m)])).toEqual([[1, 0]]);
  });

  it('R7: a whole pile without face-down cards never moves to an empty pile', () => {
    const e = new Engine(
      RULES_1,
      pos(
        [
          { cards: ['KH', 'QS'], faceDown: 0 },
          { cards: [], faceDown: 0 },
          { cards: ['2D'], faceDown: 0 },
        ],
        [1, 1, 1, 1],
      ),
      {
        autoMoves: false,
      },
    );
    expect(e.listMoves().filter((m) => moveKind(m) === K_T2T)).toEqual([]);
  });
});

describe('P6 pile symmetry', () => {
  it('piles without face-down cards are interchangeable in the key; piles with them are not', () => {
    const a = pos(
      [
        { cards: ['KH', 'QS'], faceDown: 0 },
        { cards: ['KD'], faceDown: 0 },
        { cards: ['5C', '9H'], faceDown: 1 },
      ],
      [0, 0, 0, 0],
    );
    const b = pos(
      [
        { cards: ['KD'], faceDown: 0 },
        { cards: [], faceDown: 0 },
        { cards: ['5C', '9H'], faceDown: 1 },
        { cards: [], faceDown: 0 },
        { cards: ['KH', 'QS'], faceDown: 0 },
      ],
      [0, 0, 0, 0],
    );
    const c = pos(
      [
        { cards: ['KH', 'QS'], faceDown: 0 },
        { cards: ['KD'], faceDown: 0 },
        { cards: [], faceDown: 0 },
        { cards: ['5C', '9H'], faceDown: 1 },
      ],
      [0, 0, 0, 0],
    );
    const key = (p: EnginePosition): string => Array.from(new Engine(RULES_1, p).computeKey()).join(',');
    expect(key(a)).toBe(key(b));
    expect(key(a)).not.toBe(key(c));
  });
});

describe('P7 talon pointer normalisation', () => {
  const tops = (L: number, p: number, d: number): number[] => {
    const out = new Int32Array(64);
    const k = talonReach(L, p, d, true, out);
    return Array.from(out.subarray(0, k), (x) => x & 31).sort((x, y) => x - y);
  };
  it('R10 R11: draw 1 unlimited reaches every card from every pointer', () => {
    for (let L = 1; L <= 24; L++)
      for (let p = 0; p <= L; p++) expect(tops(L, p, 1)).toEqual(Array.from({ length: L }, (_, i) => i + 1));
  });
  it('R10 R11: draw 3 unlimited reaches from a multiple of 3 (or the end) exactly what it reaches from 0', () => {
    for (let L = 1; L <= 24; L++)
      for (let p = 0; p <= L; p++) if (p % 3 === 0 || p === L) expect(tops(L, p, 3)).toEqual(tops(L, 0, 3));
  });
  it('R10: draw 3 pointers that are not multiples of 3 reach more, so they are kept', () => {
    expect(tops(10, 1, 3)).not.toEqual(tops(10, 0, 3));
  });
});

describe('P8 static impossibility certificate', () => {
  it('R13: a Two on its own Ace, with both black Threes buried under the Ace, is flagged; solve proves it at once', () => {
    // t1 = 3♣ 3♠ A♥ (face down) 2♥ (face up): 2♥ needs A♥ home or a black Three, all of them under it.
    const p = pos(
      [
        { cards: ['3C', '3S', 'AH', '2H'], faceDown: 3 },
        { cards: ['KD'], faceDown: 0 },
      ],
      [0, 0, 0, 0],
      ['QS'],
    );
    expect(new Engine(RULES_1, p).deadlocked()).toBe(true);
    // The same with 3♠ face up elsewhere is not flagged (2♥ can go on it, then A♥ turns up).
    const q = pos(
      [
        { cards: ['3C', 'QS', 'AH', '2H'], faceDown: 3 },
        { cards: ['3S'], faceDown: 0 },
      ],
      [0, 0, 0, 0],
      ['KD'],
    );
    expect(new Engine(RULES_1, q).deadlocked()).toBe(false);
  });

  it('no position along any winning line found is flagged (deals 1…40, draw 1 and 3)', () => {
    let checked = 0;
    for (const draw of [1, 3] as const) {
      const rules: EngineRules = { ...RULES_1, draw };
      for (let n = 1; n <= 40; n++) {
        const e = new Engine(rules, startOf(n));
        const seen = {
          set: new Set<string>(),
          add(k: Uint32Array): boolean {
            const s = k.join(',');
            if (this.set.has(s)) return false;
            this.set.add(s);
            return true;
          },
        };
        seen.add(e.computeKey());
        let budget = 60_000;
        if (e.search(seen, () => e.nodes > budget) !== 'won') continue;
        budget = 0;
        const line = Array.from(e.path.subarray(0, e.pathLength));
        const r = new Engine(rules, startOf(n), { autoMoves: false });
        for (const m of line) {
          expect(r.deadlocked(), `deal ${n}`).toBe(false);
          r.apply(m);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it('deals it flags are never won by the search without it (deals 1…300)', () => {
    let flagged = 0;
    for (let n = 1; n <= 300; n++) {
      if (!new Engine(RULES_1, startOf(n)).deadlocked()) continue;
      flagged++;
      for (const o of [opts(1), opts(3)]) {
        const r = solve(
          deal(n),
          o,
          { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 },
          { deadlock: false },
        );
        expect(r.verdict, `deal ${n}`).not.toBe('won');
      }
    }
    expect(flagged).toBeGreaterThan(5);
  });
});

describe('P9 partial runs, P10 talon cards to the tableau', () => {
  it('R5: a partial run moves only when the card it uncovers can go up next', () => {
    // t1: 9♠ 8♥ 7♣ face up; t2: 8♦. 7♣ may go to 8♦ only if 8♥ can go up (hearts at 7).
    const piles = [
      { cards: ['9S', '8H', '7C'], faceDown: 0 },
      { cards: ['8D'], faceDown: 0 },
    ];
    const t2t = (f: number[], tuning = {}): number[][] =>
      new Engine(RULES_1, pos(piles, f, ['KC']), { autoMoves: false, ...tuning })
        .listMoves()
        .filter((m) => moveKind(m) === K_T2T)
        .map((m) => [moveA(m), moveB(m)]);
    expect(t2t([0, 0, 0, 0])).toEqual([]);
    expect(t2t([0, 0, 7, 0])).toEqual([[0, 1]]);
    expect(t2t([0, 0, 0, 0], { partialRule: false })).toEqual([[0, 1]]);
  });

  it('R10 R11: draw 1 unlimited plays a talon card to the tableau only when a card could go on it', () => {
    // 9♦ in the talon fits on 10♠. It is played only while 8♣ or 8♠ is face up, in the talon or a foundation top.
    const w2t = (
      piles: { cards: string[]; faceDown: number }[],
      f: number[],
      talon: string[],
      rules = RULES_1,
    ): number =>
      new Engine(rules, pos(piles, f, talon), { autoMoves: false })
        .listMoves()
        .filter((m) => moveKind(m) === 4).length;
    const ten = { cards: ['TS'], faceDown: 0 };
    expect(w2t([ten, { cards: ['8C', 'KH'], faceDown: 1 }], [0, 0, 0, 7], ['9D'])).toBe(0);
    expect(w2t([ten, { cards: ['8C'], faceDown: 0 }], [0, 0, 0, 0], ['9D'])).toBe(1);
    expect(w2t([ten], [0, 0, 0, 8], ['9D'])).toBe(1); // 8♠ can come back down (R9)
    expect(w2t([ten], [0, 0, 0, 0], ['9D', '8S'])).toBe(1);
    expect(
      w2t([ten, { cards: ['8C', 'KH'], faceDown: 1 }], [0, 0, 0, 7], ['9D'], { ...RULES_1, draw: 3 }),
    ).toBe(1);
  });

  it('verdicts agree with and without P9/P10 (deals 1…40, draw 1 and 3, same node budget)', () => {
    let compared = 0;
    for (const o of [opts(1), opts(3)]) {
      for (let n = 1; n <= 40; n++) {
        const lim = { maxNodes: 100_000, timeLimitMs: 60_000, shortenMs: 0 };
        const a = solve(deal(n), o, lim).verdict;
        const b = solve(deal(n), o, lim, { partialRule: false, talonRule: false }).verdict;
        if (a !== 'unknown' && b !== 'unknown') {
          expect(a, `draw ${o.draw} deal ${n}`).toBe(b);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(55);
  });

  it('mid-game positions: verdicts agree with and without P9/P10 (random playouts)', () => {
    const random = rng(23);
    let compared = 0;
    for (let n = 1; n <= 40; n++) {
      for (const draw of [1, 3] as const) {
        const rules: EngineRules = { ...RULES_1, draw };
        const e = new Engine(rules, startOf(n), { autoMoves: false, partialRule: false, talonRule: false });
        const steps = 10 + Math.floor(random() * 30);
        for (let k = 0; k < steps; k++) {
          const moves = e.listMoves();
          if (moves.length === 0) break;
          e.apply(moves[Math.floor(random() * moves.length)] as number);
        }
        const p = e.snapshot();
        const verdict = (tuning: object): string => {
          const x = new Engine(rules, p, tuning);
          const seen = new Set<string>();
          const set = {
            add: (k: Uint32Array): boolean => (seen.has(k.join()) ? false : (seen.add(k.join()), true)),
          };
          set.add(x.computeKey());
          return x.search(set, () => x.nodes > 60_000);
        };
        const a = verdict({});
        const b = verdict({ partialRule: false, talonRule: false });
        if (a !== 'aborted' && b !== 'aborted') {
          expect(a, `draw ${draw} deal ${n}`).toBe(b);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(30);
  });
});

describe('P11 talon pointer dominance (draw 3, unlimited redeals)', () => {
  const tops = (L: number, p: number): Set<number> => {
    const out = new Int32Array(64);
    const k = talonReach(L, p, 3, true, out);
    return new Set(Array.from(out.subarray(0, k), (x) => x & 31));
  };
  const subset = (a: Set<number>, b: Set<number>): boolean => [...a].every((x) => b.has(x));

  it('R10 R11: a pointer reaches every top that pointer + 3k reaches, and every pointer reaches what 0 reaches', () => {
    for (let L = 1; L <= 24; L++) {
      for (let p = 1; p < L; p++) {
        if (p % 3 === 0) continue;
        for (let q = p - 3; q >= 1; q -= 3)
          expect(subset(tops(L, p), tops(L, q)), `L ${L} ${q} ⊇ ${p}`).toBe(true);
      }
      for (let q = 0; q <= L; q++) expect(subset(tops(L, 0), tops(L, q)), `L ${L} ${q} ⊇ 0`).toBe(true);
    }
    // …and it is a real domination, not an equivalence: 1 reaches the first card, 4 does not.
    expect(tops(10, 4).has(1)).toBe(false);
    expect(tops(10, 1).has(1)).toBe(true);
  });

  it('verdicts agree with and without P11 (draw 3 deals 1…40, same node budget); impossible deals need fewer positions', () => {
    // Deal 20: P11 proves it with 1.36 M positions against 1.70 M.
    expectSameVerdictsFewerPositions({ pointerDominance: false });
  });

  it('mid-game draw 3 positions: verdicts agree with and without P11 (random playouts)', () => {
    const random = rng(41);
    let compared = 0;
    for (let n = 1; n <= 40; n++) {
      const rules: EngineRules = { ...RULES_1, draw: 3 };
      const p = playout(rules, n, random, 30, { autoMoves: false, partialRule: false });
      const a = verdictWithin(rules, p, { pointerDominance: true });
      const b = verdictWithin(rules, p, { pointerDominance: false });
      if (a !== 'aborted' && b !== 'aborted') {
        expect(a, `draw 3 deal ${n}`).toBe(b);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(15);
  });
});

describe('P12 foundation cards come down only when something can follow (R9, where P10 is off)', () => {
  const RULES_3: EngineRules = { ...RULES_1, draw: 3 };
  /** The moves taking a heart down from its foundation. */
  const f2t = (e: Engine): number[] => e.listMoves().filter((m) => moveKind(m) === K_F2T && moveA(m) === 2);

  it('R9: 8♥ does not come down onto 9♠ when no black 7 and no black 8 could follow; it does when 7♠ is a foundation top', () => {
    // Foundations C 13, D 0, H 8, S 8: 7♣ and 7♠ are buried in their foundations, both black 8s are up.
    const dead = pos(
      [
        { cards: ['9S'], faceDown: 0 },
        { cards: ['KD'], faceDown: 0 },
      ],
      [13, 0, 8, 8],
      ['QD'],
    );
    expect(f2t(new Engine(RULES_3, dead))).toEqual([]);
    expect(f2t(new Engine(RULES_3, dead, { foundationRule: false })).length).toBe(1);
    // Spades at 7: 7♠ could come down onto 8♥ next, so 8♥ may come down (8♠ waits in the talon).
    const live = pos(
      [
        { cards: ['9S'], faceDown: 0 },
        { cards: ['KD'], faceDown: 0 },
      ],
      [13, 0, 8, 7],
      ['8S', 'QD'],
    );
    const moves = f2t(new Engine(RULES_3, live));
    expect(moves.some((m) => moveA(m) === 2 && moveB(m) === 0)).toBe(true);
    // 7♣ face up in the tableau (clubs at 6) could go onto 8♥ next too.
    const tableau = pos(
      [
        { cards: ['9S'], faceDown: 0 },
        { cards: ['KD', '7C'], faceDown: 1 },
      ],
      [6, 0, 8, 8],
      ['QD'],
    );
    expect(f2t(new Engine(RULES_3, tableau)).some((m) => moveA(m) === 2)).toBe(true);
    // Under draw 1 with unlimited redeals P10 is used instead, and P12 is off.
    expect(f2t(new Engine(RULES_1, dead)).length).toBe(1);
  });

  it('verdicts agree with and without P12 (draw 3 deals 1…40, same node budget); impossible deals need fewer positions', () => {
    // Deal 20: P12 proves it with 1.14 M positions against 1.36 M.
    expectSameVerdictsFewerPositions({ foundationRule: false });
  });

  it('mid-game positions: verdicts agree with and without P12 (draw 3, and draw 1 with 2 redeals; random playouts)', () => {
    const random = rng(53);
    let compared = 0;
    for (const rules of [RULES_3, { ...RULES_1, redealLimit: 2 }] as EngineRules[]) {
      for (let n = 1; n <= 40; n++) {
        const p = playout(rules, n, random, 40, {
          autoMoves: false,
          partialRule: false,
          foundationRule: false,
        });
        const a = verdictWithin(rules, p, { foundationRule: true });
        const b = verdictWithin(rules, p, { foundationRule: false });
        if (a !== 'aborted' && b !== 'aborted') {
          expect(a, `draw ${rules.draw} redeals ${rules.redealLimit} deal ${n}`).toBe(b);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(30);
  });
});
