/**
 * Hand-checked verdicts: trivially winnable deals, constructed impossible deals and positions, positions
 * near the end, hints, limits and bad input.
 */
import {
  type Deal,
  type GameOptions,
  type GameState,
  type Move,
  applyMove,
  legalMoves,
  newGame,
  parseDeal,
  resolveOptions,
} from '@klondike/rules';
import { winnableDeal } from '@klondike/rules/testing';
import { describe, expect, it } from 'vitest';
import { hint, solve } from '../src/index.js';
import { card, deal, opts, replayStatus } from './helpers.js';

/** Limits that decide these positions by node count, whatever the machine's load (no wall clock). */
const DECIDE = { maxNodes: 500_000, timeLimitMs: 600_000 } as const;

/** Inverse of the R2 cross-wise deal: the deal order that gives `piles` (bottom first) and the stock. */
function dealOf(piles: readonly string[][], stockDrawOrder: readonly string[]): Deal {
  const out: number[] = [];
  for (let round = 0; round < 7; round++)
    for (let p = round; p < 7; p++) out.push(card((piles[p] as string[])[round] as string));
  return out.concat(stockDrawOrder.map(card));
}

/** A position built by hand on top of any start position (only the fields the rules read). */
function position(
  options: GameOptions,
  tableau: { cards: string[]; faceDown: number }[],
  foundations: [number, number, number, number],
  stock: string[],
  waste: string[],
): GameState {
  const base = newGame(deal(1), options);
  const piles = [...tableau];
  while (piles.length < 7) piles.push({ cards: [], faceDown: 0 });
  return {
    ...base,
    tableau: piles.map((p) => ({ cards: p.cards.map(card), faceDown: p.faceDown })),
    foundations,
    stock: stock.map(card),
    waste: waste.map(card),
  };
}

const ALL_VARIANTS: GameOptions[] = [
  opts(1),
  opts(3),
  opts(1, { redeals: 0 }),
  opts(3, { redeals: 2 }),
  opts(3, { tableauMoves: 'wholePile' }),
  opts(1, { foundationToTableau: false }),
];

/**
 * A deal in which no move but draw and recycle is ever legal. Tops: the four Kings and J♥ J♦ J♣. What could
 * go on them — the four Queens, the black Tens (on the red Jacks) and the red Tens (on J♣) — is face down,
 * and so are the four Aces. No top fits on another top, no pile can be emptied (so the Kings never move)
 * and no stock card is an Ace or fits on a top. Nothing ever changes: impossible under every variant.
 */
const BLOCKED_DEAL = dealOf(
  [
    ['KH'],
    ['QC', 'KD'],
    ['QS', 'QH', 'KC'],
    ['QD', 'TC', 'TS', 'KS'],
    ['TH', 'TD', 'AC', 'AD', 'JH'],
    ['AH', 'AS', '2C', '2D', '2H', 'JD'],
    ['2S', '3C', '3D', '3H', '3S', '4C', 'JC'],
  ],
  ['4D', '4H', '4S', '5C', '5D', '5H', '5S', '6C', '6D', '6H', '6S', '7C'].concat([
    '7D',
    '7H',
    '7S',
    '8C',
    '8D',
    '8H',
    '8S',
    '9C',
    '9D',
    '9H',
    '9S',
    'JS',
  ]),
);

describe('winnable deals (R12)', () => {
  for (const draw of [1, 3] as const) {
    it(`R10 R12: winnableDeal(${draw}) is won and the line replays to a win`, () => {
      const d = parseDeal(winnableDeal(draw));
      if (!d.ok) throw new Error(d.error.message);
      const o = opts(draw);
      const r = solve(d.value, o, DECIDE);
      expect(r.verdict).toBe('won');
      expect(replayStatus(newGame(d.value, o), r.line ?? [])).toBe('won');
    });
  }
});

describe('constructed impossible deals and positions', () => {
  for (const o of ALL_VARIANTS) {
    it(`R13: the blocked deal is impossible (draw ${o.draw}, redeals ${o.redeals}, ${o.tableauMoves}, f→t ${o.foundationToTableau})`, () => {
      const r = solve(BLOCKED_DEAL, o, DECIDE);
      expect(r.verdict).toBe('impossible');
      expect(r.nodes).toBeLessThan(100);
    });
  }

  // Clubs, diamonds and spades are home; A♥ lies face down under 2♥ in t1; 3♥ … K♥ are in the stock.
  // 2♥ needs a black Three on the tableau. Without R9 no black card can ever come back, so A♥ stays buried:
  // impossible. With R9: K♥ to an empty pile, K♠ down to another, then alternately a black card down from
  // its foundation and a heart from the stock (Q♠ on K♥, Q♥ on K♠, J♠ on Q♥, J♥ on Q♠, …) until 3♠ lies on
  // 4♥; then 2♥ goes on 3♠, A♥ turns up, and everything goes home: won.
  const hearts = (o: GameOptions): GameState =>
    position(
      o,
      [{ cards: ['AH', '2H'], faceDown: 1 }],
      [13, 13, 0, 13],
      ['3H', '4H', '5H', '6H', '7H', '8H', '9H', 'TH', 'JH', 'QH', 'KH'],
      [],
    );
  it('R9: the buried-A♥ position is impossible without foundation-to-tableau', () => {
    for (const draw of [1, 3] as const) {
      const o = opts(draw, { foundationToTableau: false });
      expect(solve(hearts(o), o, DECIDE).verdict).toBe('impossible');
    }
  });
  it('R9: the buried-A♥ position is won with foundation-to-tableau, and the line replays', () => {
    for (const draw of [1, 3] as const) {
      const o = opts(draw);
      const r = solve(hearts(o), o, DECIDE);
      expect(r.verdict).toBe('won');
      expect(replayStatus(hearts(o), r.line ?? [])).toBe('won');
      // It must take black cards down from a foundation (spades as below, or clubs the same way).
      expect((r.line ?? []).some((m) => m.type === 'move' && (m.from === 'fS' || m.from === 'fC'))).toBe(
        true,
      );
    }
  });

  // Only spades are left, all in the stock, drawn in the order 2♠ 3♠ A♠ 4♠ … K♠; no foundation-to-tableau.
  // Draw 1: A♠ goes up, but 2♠ lies under 3♠ in the waste and no spade fits on another spade, so the only
  // way to 2♠ is a redeal. One redeal then lets every spade go up in order.
  const spades = (o: GameOptions): GameState =>
    position(
      o,
      [],
      [13, 13, 13, 0],
      ['2S', '3S', 'AS', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS'].reverse(),
      [],
    );
  it('R11: a position that needs a redeal is impossible with 0 redeals and won with 1', () => {
    const o0 = opts(1, { redeals: 0, foundationToTableau: false });
    const o1 = opts(1, { redeals: 1, foundationToTableau: false });
    expect(solve(spades(o0), o0).verdict).toBe('impossible');
    const r = solve(spades(o1), o1);
    expect(r.verdict).toBe('won');
    expect((r.line ?? []).filter((m) => m.type === 'recycle')).toHaveLength(1);
    expect(replayStatus(spades(o1), r.line ?? [])).toBe('won');
  });
});

describe('positions near the end', () => {
  it('R12: a position one card from the end is won in one move', () => {
    const o = opts(1);
    const s = position(o, [{ cards: ['KH'], faceDown: 0 }], [13, 13, 12, 13], [], []);
    const r = solve(s, o);
    expect(r.verdict).toBe('won');
    expect(r.line).toEqual([{ type: 'move', from: 't1', to: 'fH', count: 1 }]);
  });

  it('R6 R12: a short end game through a turn-up and the waste is won and replays', () => {
    for (const draw of [1, 3] as const) {
      const o = opts(draw);
      // Q♥ face up on K♠ (face down); K♥ alone; Q♠ in the waste.
      const s = position(
        o,
        [
          { cards: ['KS', 'QH'], faceDown: 1 },
          { cards: ['KH'], faceDown: 0 },
        ],
        [13, 13, 11, 11],
        [],
        ['QS'],
      );
      const r = solve(s, o);
      expect(r.verdict).toBe('won');
      expect(replayStatus(s, r.line ?? [])).toBe('won');
    }
  });

  it('R12: a won position is won with an empty line', () => {
    const o = opts(3);
    const s = position(o, [], [13, 13, 13, 13], [], []);
    expect(solve(s, o)).toMatchObject({ verdict: 'won', line: [] });
  });
});

describe('hints', () => {
  it('hint gives a legal first move of a winning line from a mid-game position', () => {
    const o = opts(1);
    let s = newGame(deal(2), o);
    // Play a few moves first: any legal foundation or tableau moves, else draw.
    for (let i = 0; i < 6; i++) {
      const legal = legalMoves(s);
      const m = legal.find((x) => x.type === 'move') ?? (legal[legal.length - 1] as Move);
      const r = applyMove(s, m);
      if (!r.ok) throw new Error(r.error.message);
      s = r.value;
    }
    const h = hint(s, o, DECIDE);
    expect(h.verdict).toBe('won');
    expect(h.move).toBeDefined();
    const next = applyMove(s, h.move as Move);
    if (!next.ok) throw new Error(`the hint is not a legal move: ${next.error.code}`);
    expect(solve(next.value, o, DECIDE).verdict).toBe('won');
  });

  it('hint on a won position has no move', () => {
    const o = opts(1);
    const s = position(o, [], [13, 13, 13, 13], [], []);
    expect(hint(s, o)).toEqual({ verdict: 'won' });
  });
});

describe('limits and input', () => {
  it('a search cut short by maxNodes, maxStates or time is unknown', () => {
    const o = opts(1);
    const d = deal(3);
    expect(solve(d, o, { maxNodes: 2000 }).verdict).toBe('unknown');
    expect(solve(d, o, { maxStates: 2000 }).verdict).toBe('unknown');
    expect(solve(d, o, { timeLimitMs: 0 }).verdict).toBe('unknown');
  });

  it('malformed deals, positions and options throw RangeError', () => {
    const o = opts(1);
    expect(() => solve(deal(1).slice(0, 51), o)).toThrow(RangeError);
    expect(() => solve([...deal(1).slice(0, 51), deal(1)[0] as number], o)).toThrow(RangeError);
    const bad = position(o, [{ cards: ['KH', 'QH'], faceDown: 0 }], [13, 13, 11, 13], [], []);
    expect(() => solve(bad, o)).toThrow(RangeError); // face-up cards that are not a run
    const missing = position(o, [], [13, 13, 11, 13], [], []);
    expect(() => solve(missing, o)).toThrow(RangeError); // Q♥ and K♥ are nowhere
    expect(() => solve(deal(1), resolveOptions('classic-draw1', { redeals: -1 }))).toThrow(RangeError);
  });
});

describe('cpuTimeLimitMs (a CPU-time budget instead of wall time)', () => {
  it('stops a hard search once the process has spent the budget, and reports the CPU time spent', () => {
    // Draw 3 deal 10 needs ~29 M positions to prove impossible: far beyond 50 ms of CPU.
    const r = solve(deal(10), opts(3), { cpuTimeLimitMs: 50, timeLimitMs: 1 });
    expect(r.verdict).toBe('unknown');
    expect(r.searchCpuMs).toBeGreaterThanOrEqual(50);
    expect(r.nodes).toBeGreaterThan(1000); // the 1 ms wall limit was replaced, not applied
  });
  it('an easy deal is decided as without it, and its line replays to a win', () => {
    const r = solve(deal(1), opts(1), { cpuTimeLimitMs: 5000 });
    expect(r.verdict).toBe('won');
    expect(replayStatus(newGame(deal(1), opts(1)), r.line ?? [])).toBe('won');
  });
});
