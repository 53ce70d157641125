/**
 * R16 (`finalSinglePass`, preset `draw3-last-pass`): the last pass as part of the search — the talon macro
 * moves that take it (P3), exact keys (P1), verdicts, lines and hints, and the monotonicity of the variant
 * against its neighbours. Node limits, never time limits.
 */
import {
  type Deal,
  type GameOptions,
  type GameState,
  type Move,
  PRESETS,
  applyMove,
  newGame,
  resolveOptions,
} from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import {
  Engine,
  type EnginePosition,
  type EngineRules,
  FLAG_LAST_PASS,
  SWITCH_ALL,
  SWITCH_NONE,
  SWITCH_UNREACHED,
  talonReach,
} from '../src/engine.js';
import { type Verdict, hint, solve } from '../src/index.js';
import { card, deal, opts, replayStatus, rng } from './helpers.js';

const LAST_PASS = PRESETS['draw3-last-pass'];
const LIMIT = { maxNodes: 150_000, timeLimitMs: 60_000, shortenMs: 0 };

describe('R16 P3: talon macro moves with the last pass', () => {
  /**
   * Every (waste size, route) the rules package reaches from a talon of L cards with p in the waste, by
   * draws, recycles and the last pass: route 0 = draws only, 1 = one recycle, 2 = the last pass.
   */
  function bruteForce(L: number, p: number, redeals: number | null): Set<string> {
    const codes = ['2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', 'TC', 'JC', 'QC'].slice(0, L);
    const o: GameOptions = resolveOptions('draw3-last-pass', { redeals });
    const base = newGame(deal(1), o);
    const talon = codes.map(card);
    const start: GameState = {
      ...base,
      tableau: base.tableau.map(() => ({ cards: [], faceDown: 0 })),
      waste: talon.slice(0, p),
      stock: talon.slice(p).reverse(),
    };
    const out = new Set<string>();
    const seen = new Set<string>();
    const queue: GameState[] = [start];
    while (queue.length > 0) {
      const s = queue.shift() as GameState;
      const k = `${s.waste.length}/${s.recycles}/${s.lastPass}`;
      if (seen.has(k) || s.recycles > 1) continue;
      seen.add(k);
      if (s.waste.length > 0) out.add(`${s.waste.length}/${s.lastPass ? 2 : s.recycles}`);
      for (const m of [{ type: 'draw' }, { type: 'recycle' }, { type: 'last-pass' }] as const) {
        const r = applyMove(s, m);
        if (r.ok) queue.push(r.value);
      }
    }
    return out;
  }

  it('R10 R11 R16: every waste top is listed once per route that is not dominated, and each route works', () => {
    const out = new Int32Array(64);
    for (const redeals of [null, 1] as const) {
      for (let L = 0; L <= 11; L++) {
        for (let p = 0; p <= L; p++) {
          const reached = bruteForce(L, p, redeals);
          // A recycle that leaves a redeal for the last pass dominates the last pass (unlimited here).
          const mode = redeals === null ? SWITCH_UNREACHED : SWITCH_ALL;
          const k = talonReach(L, p, 3, true, out, mode);
          const listed = new Set<string>();
          for (let x = 0; x < k; x++) listed.add(`${(out[x] as number) & 31}/${(out[x] as number) >> 5}`);
          const where = `redeals ${redeals} L ${L} p ${p}`;
          expect(listed.size, where).toBe(k); // no duplicates
          for (const e of listed) expect(reached.has(e), `${where}: ${e}`).toBe(true);
          // Every reachable top is listed, with its cheapest route (draws, then a recycle, then the switch).
          for (let q = 1; q <= L; q++) {
            const routes = [0, 1, 2].filter((f) => reached.has(`${q}/${f}`));
            if (routes.length === 0) continue;
            const first = routes[0] as number;
            expect(listed.has(`${q}/${first}`), `${where}: q ${q}`).toBe(true);
            if (first === 0)
              expect(listed.has(`${q}/1`) || listed.has(`${q}/2`), `${where}: q ${q}`).toBe(false);
            if (first === 1 && mode === SWITCH_ALL) expect(listed.has(`${q}/2`)).toBe(reached.has(`${q}/2`));
            if (first === 1 && mode === SWITCH_UNREACHED) expect(listed.has(`${q}/2`)).toBe(false);
          }
        }
      }
    }
  });

  it('R16: after the last pass the talon is drawn one card at a time, without a recycle', () => {
    const out = new Int32Array(64);
    const k = talonReach(7, 2, 1, false, out, SWITCH_NONE);
    expect(Array.from(out.subarray(0, k))).toEqual([2, 3, 4, 5, 6, 7]);
  });
});

describe('R16 P1: keys and apply/undo with the last pass', () => {
  const RULES: EngineRules = {
    draw: 3,
    redealLimit: -1,
    wholePile: false,
    foundationToTableau: true,
    finalSinglePass: true,
  };

  function startOf(n: number): EnginePosition {
    const s = newGame(deal(n), LAST_PASS);
    return {
      piles: s.tableau.map((p) => p.cards.slice()),
      faceDown: s.tableau.map((p) => p.faceDown),
      foundations: [0, 0, 0, 0],
      talon: s.stock.slice().reverse(),
      pointer: 0,
      recycles: 0,
      lastPass: false,
    };
  }

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
    // P7 (draw 3, unlimited) only before the last pass; after it the pointer is exact.
    const p = s.lastPass !== true && (s.pointer % 3 === 0 || s.pointer === L) ? 0 : s.pointer;
    return `${free.join('|')}#${fixed.join('|')}#${s.foundations.join(',')}#${s.talon.join(',')}@${p}#${s.lastPass}`;
  }

  it('random walks: equal keys exactly when the canonical positions are equal; apply/undo is exact', () => {
    const byKey = new Map<string, string>();
    const byCanon = new Map<string, string>();
    const random = rng(16);
    let switched = 0;
    for (let n = 1; n <= 40; n++) {
      const e = new Engine(RULES, startOf(n), { autoMoves: false });
      for (let step = 0; step < 100; step++) {
        const moves = e.listMoves();
        if (moves.length === 0) break;
        for (const m of moves) {
          const before = JSON.stringify(e.snapshot());
          const u = e.apply(m);
          e.undo(m, u);
          expect(JSON.stringify(e.snapshot())).toBe(before);
        }
        // Taking the last pass ends most walks soon: the first 60 steps never take it, the rest may.
        const noPass = moves.filter((m) => m >> 14 !== FLAG_LAST_PASS);
        const pool = step < 60 && noPass.length > 0 ? noPass : moves;
        e.apply(pool[Math.floor(random() * pool.length)] as number);
        if (e.lastPass === 1) switched++;
        const key = Array.from(e.computeKey()).join(',');
        const c = canonical(e);
        expect(byKey.get(key) ?? c).toBe(c);
        expect(byCanon.get(c) ?? key).toBe(key);
        byKey.set(key, c);
        byCanon.set(c, key);
      }
    }
    const after = [...byCanon.keys()].filter((c) => c.endsWith('#true')).length;
    expect(switched).toBeGreaterThan(500);
    expect(after).toBeGreaterThan(100); // positions after the last pass
    expect(byKey.size - after).toBeGreaterThan(100); // and before it
  });
});

/**
 * A position where the last three hearts are in the talon as one draw-3 group with A♥ drawn first (so a
 * draw-3 pass always leaves 3♥ on top of it), clubs, diamonds and spades are home, and 4♥ … K♥ wait in
 * the tableau. Without foundation-to-tableau nothing can go on 3♥, so only a one-card pass saves it.
 */
function heartsPosition(options: GameOptions, drawn: boolean): GameState {
  const base = newGame(deal(1), options);
  const piles = [
    { cards: ['KH', 'QH', 'JH', 'TH', '9H', '8H', '7H'].map(card), faceDown: 6 },
    { cards: ['6H', '5H', '4H'].map(card), faceDown: 2 },
    ...Array.from({ length: 5 }, () => ({ cards: [], faceDown: 0 })),
  ];
  const talon = ['3H', '2H', 'AH'].map(card); // bottom first: A♥ is drawn first
  return {
    ...base,
    tableau: piles,
    foundations: [13, 13, 0, 13],
    stock: drawn ? [] : talon,
    waste: drawn ? talon.slice().reverse() : [],
  };
}

describe('R16 verdicts, lines and hints', () => {
  const noF2T = { foundationToTableau: false };

  it('R16: a position only the last pass wins is impossible under draw 3 and won with it; the line replays', () => {
    const strict = opts(3, noF2T);
    expect(solve(heartsPosition(strict, false), strict, LIMIT).verdict).toBe('impossible');
    const o = resolveOptions('draw3-last-pass', noF2T);
    const s = heartsPosition(o, false);
    const r = solve(s, o, LIMIT);
    expect(r.verdict).toBe('won');
    const line = r.line ?? [];
    expect(line.filter((m) => m.type === 'last-pass')).toHaveLength(1);
    expect(line.slice(0, 3)).toEqual([{ type: 'draw' }, { type: 'last-pass' }, { type: 'draw' }]);
    expect(replayStatus(s, line)).toBe('won');
  });

  it('R16: once the last pass has gone by A♥, the position is impossible', () => {
    const o = resolveOptions('draw3-last-pass', noF2T);
    let s = heartsPosition(o, true);
    for (const m of [{ type: 'last-pass' }, { type: 'draw' }, { type: 'draw' }, { type: 'draw' }] as Move[]) {
      const r = applyMove(s, m);
      if (!r.ok) throw new Error(r.error.code);
      s = r.value;
    }
    // A♥ was on top after the first draw but was covered: nothing brings it back.
    expect(solve(s, o, LIMIT).verdict).toBe('impossible');
  });

  it('R16: the hint in place of a redeal is the last pass when only it wins', () => {
    const o = resolveOptions('draw3-last-pass', noF2T);
    expect(hint(heartsPosition(o, true), o, LIMIT)).toEqual({ verdict: 'won', move: { type: 'last-pass' } });
  });

  it('R16: under draw 1 the search leaves the last pass out and still wins', () => {
    const o = resolveOptions('classic-draw1', { finalSinglePass: true, ...noF2T });
    const s = heartsPosition(o, false);
    const r = solve(s, o, LIMIT);
    expect(r.verdict).toBe('won');
    expect((r.line ?? []).some((m) => m.type === 'last-pass')).toBe(false);
    expect(replayStatus(s, r.line ?? [])).toBe('won');
  });

  it('R12 R16: won lines over seeded deals replay to a win under draw3-last-pass', () => {
    let won = 0;
    let switched = 0;
    for (let n = 1; n <= 30; n++) {
      const d = deal(n);
      const r = solve(d, LAST_PASS, LIMIT);
      if (r.verdict !== 'won') continue;
      won++;
      if ((r.line ?? []).some((m) => m.type === 'last-pass')) switched++;
      expect(replayStatus(newGame(d, LAST_PASS), r.line ?? []), `deal ${n}`).toBe('won');
    }
    expect(won).toBeGreaterThanOrEqual(15);
    expect(switched).toBeGreaterThan(0);
  });

  it('R12 R16: shortened lines still replay to a win and are never longer', () => {
    for (const n of [1, 4, 8]) {
      const d = deal(n);
      const a = solve(d, LAST_PASS, { ...LIMIT, shortenMs: 0 });
      if (a.verdict !== 'won') continue;
      const b = solve(d, LAST_PASS, { ...LIMIT, shortenMs: 100 });
      expect(b.verdict).toBe('won');
      expect(replayStatus(newGame(d, LAST_PASS), b.line ?? [])).toBe('won');
      expect((b.line ?? []).length).toBeLessThanOrEqual((a.line ?? []).length);
    }
  });
});

/**
 * What holds between this variant and its neighbours:
 * - draw3-last-pass ⊇ classic-draw3 ⊇ strict-draw3: a line that never takes the last pass is a line of the
 *   variant, so every draw-3 win (with any number of redeals) is a win here. With a redeal limit k the
 *   variant (the last pass then uses one of the k redeals) still contains draw 3 with k redeals.
 * - classic-draw1 ⊇ draw3-last-pass: in draw 1 with unlimited redeals every talon card can be brought to the
 *   top at any time, and playing it leaves the same talon, so the draws (of three or of one) and redeals of
 *   any line regroup into draw-1 draws and recycles.
 * - Not claimed: anything against draw 1 with limited redeals (a draw-3 game may redeal many times).
 */
describe('R16 monotonicity', () => {
  const DEALS = 30;

  it('R16: every won draw-3 line (unlimited or 2 redeals) replays as a win under draw3-last-pass', () => {
    let replayed = 0;
    for (const weak of [PRESETS['classic-draw3'], PRESETS['strict-draw3']]) {
      for (let n = 1; n <= DEALS; n++) {
        const d: Deal = deal(n);
        const r = solve(d, weak, LIMIT);
        if (r.verdict !== 'won') continue;
        replayed++;
        expect(replayStatus(newGame(d, LAST_PASS), r.line ?? []), `deal ${n}`).toBe('won');
      }
    }
    expect(replayed).toBeGreaterThan(20);
  });

  /** Pairs (stronger, weaker): never impossible under the stronger when won under the weaker. */
  const PAIRS: [string, GameOptions, GameOptions][] = [
    ['draw3-last-pass ⊇ classic-draw3', LAST_PASS, PRESETS['classic-draw3']],
    [
      'draw3-last-pass with 2 redeals ⊇ strict-draw3',
      resolveOptions('draw3-last-pass', { redeals: 2 }),
      PRESETS['strict-draw3'],
    ],
    ['classic-draw1 ⊇ draw3-last-pass', PRESETS['classic-draw1'], LAST_PASS],
  ];
  for (const [name, strong, weak] of PAIRS) {
    it(`R16: verdicts never contradict: ${name}`, () => {
      let decided = 0;
      for (let n = 1; n <= DEALS; n++) {
        const d = deal(n);
        const a: Verdict = solve(d, strong, LIMIT).verdict;
        const b: Verdict = solve(d, weak, LIMIT).verdict;
        if (a !== 'unknown' && b !== 'unknown') decided++;
        expect(a === 'impossible' && b === 'won', `deal ${n}: ${a} vs ${b}`).toBe(false);
      }
      expect(decided).toBeGreaterThan(10);
    });
  }
});
