/**
 * The rules from the player's side (src/view-rules.ts): legality answered from a PlayerView must be the
 * engine's answer on the full state, on every position (property tests), and the client's questions —
 * what a drag picks up, where it may land, what a double-click does — follow R4–R11, R15, R16.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PILE_IDS,
  PRESET_NAMES,
  applyMove,
  applyViewMove,
  cardInfo,
  codeOf,
  dealFromNumber,
  dragCount,
  drawCount,
  foundationCount,
  foundationMove,
  isLegalViewMove,
  legalMoves,
  legalTargets,
  newGame,
  nextFoundationMove,
  playerView,
  resolveCount,
  resolveOptions,
  safeViewAutoMove,
  smartMove,
  stockMove,
  validateMove,
  validateViewMove,
  viewState,
  type GameState,
  type Move,
  type PresetName,
} from '../src/index.js';
import { makeView } from './helpers.js';

/** Every move a client could send: all pile pairs with counts 0…14, draw, recycle, last pass. */
const EVERY_MOVE: readonly Move[] = [
  { type: 'draw' },
  { type: 'recycle' },
  { type: 'last-pass' },
  ...PILE_IDS.flatMap((from) =>
    PILE_IDS.flatMap((to) =>
      Array.from({ length: 15 }, (_, count): Move => ({ type: 'move', from, to, count })),
    ),
  ),
];

const gameArb = fc.record({
  preset: fc.constantFrom(...PRESET_NAMES),
  dealNumber: fc.integer({ min: 1, max: 0xffffffff }),
  choices: fc.array(fc.nat(), { minLength: 40, maxLength: 200 }),
});

/** Random play; returns every 4th position reached and the last one (the start included). */
function positions(g: { preset: PresetName; dealNumber: number; choices: number[] }): GameState[] {
  const deal = dealFromNumber(g.dealNumber);
  if (!deal.ok) throw new Error('deal');
  let state = newGame(deal.value, resolveOptions(g.preset));
  const out = [state];
  g.choices.forEach((choice, i) => {
    const legal = legalMoves(state);
    if (legal.length === 0) return;
    const r = applyMove(state, legal[choice % legal.length] as Move);
    if (!r.ok) throw new Error(r.error.code);
    state = r.value;
    if (i % 4 === 3) out.push(state);
  });
  if (out[out.length - 1] !== state) out.push(state);
  return out;
}

describe('legality from the view equals legality from the full state', () => {
  it(
    'every move a client could send gets the same answer (accepted, or refused with the same code)',
    { timeout: 60_000 },
    () => {
      let checked = 0;
      fc.assert(
        fc.property(gameArb, (g) => {
          for (const state of positions(g)) {
            const view = playerView(state, 0);
            const fromView = viewState(view);
            // Compared in a plain loop (an expect per move would cost more than the moves themselves).
            const disagreements: string[] = [];
            for (const move of EVERY_MOVE) {
              const full = applyMove(state, move);
              const seen = applyMove(fromView, move);
              const a = full.ok ? null : full.error.code;
              const b = seen.ok ? null : seen.error.code;
              if (a !== b) disagreements.push(`${JSON.stringify(move)}: state ${a}, view ${b}`);
            }
            expect(disagreements).toEqual([]);
            // The exported entry point too (on a sample: it rebuilds the state on every call).
            for (const move of EVERY_MOVE.filter((_, i) => i % 37 === 0)) {
              expect(validateViewMove(view, move)?.code ?? null).toBe(
                validateMove(state, move)?.code ?? null,
              );
            }
            expect(legalMoves(fromView)).toEqual(legalMoves(state));
            checked++;
          }
        }),
        { numRuns: 150 },
      );
      expect(checked).toBeGreaterThan(1000); // "thousands of random positions", counted
    },
  );

  it(
    'a pile move shown before the server confirms it is the server view, the uncovered card still hidden (R6)',
    { timeout: 60_000 },
    () => {
      fc.assert(
        fc.property(gameArb, (g) => {
          for (const state of positions(g)) {
            const view = playerView(state, 0);
            for (const move of legalMoves(state)) {
              const optimistic = applyViewMove(view, move);
              if (move.type !== 'move') {
                expect(optimistic).toBeNull(); // a draw's cards are the server's to reveal
                continue;
              }
              const r = applyMove(state, move);
              if (!r.ok) throw new Error(r.error.code);
              const server = playerView(r.value, 0);
              expect(optimistic).not.toBeNull();
              if (!optimistic) continue;
              expect(optimistic.foundations).toEqual(server.foundations);
              expect(optimistic.waste).toEqual(server.waste);
              expect(optimistic.moves).toBe(server.moves);
              if (state.options.scoring !== 'standard' || !state.options.timed)
                expect(optimistic.score).toBe(server.score);
              optimistic.tableau.forEach((pile, i) => {
                const real = server.tableau[i];
                if (!real) throw new Error('pile');
                if (pile.faceDown === real.faceDown) expect(pile).toEqual(real);
                else {
                  // The card R6 turned up is not shown: one more face-down card, and nothing face up.
                  expect(pile).toEqual({ faceDown: real.faceDown + 1, faceUp: [] });
                  expect(real.faceUp).toHaveLength(1);
                }
              });
            }
          }
        }),
        { numRuns: 40 },
      );
    },
  );

  it('a pile whose turned-up card is not shown yet takes nothing until the server view arrives', () => {
    const v = makeView({
      tableau: [
        [2, ['9H', '8C']],
        [0, ['TS']],
        [0, ['KD']],
      ],
    });
    const after = applyViewMove(v, { type: 'move', from: 't1', to: 't2', count: 2 });
    expect(after?.tableau[0]).toEqual({ faceDown: 2, faceUp: [] });
    if (!after) return;
    expect(validateViewMove(after, { type: 'move', from: 't3', to: 't1', count: 1 })?.code).toBe(
      'not-face-up',
    );
    expect(validateViewMove(after, { type: 'move', from: 't1', to: 't3', count: 1 })?.code).toBe(
      'not-face-up',
    );
  });
});

describe('drag pick-ups (R5, R9)', () => {
  const view = makeView({
    tableau: [
      [2, ['9H', '8C', '7D']],
      [0, ['5S', '9D', '8S']],
    ],
    waste: ['2C', '3D'],
    foundations: { fS: '2S' },
  });

  it('R5: picks up a card and every card above it when they form a run', () => {
    expect(dragCount(view, 't1', 0)).toBe(3);
    expect(dragCount(view, 't1', 1)).toBe(2);
    expect(dragCount(view, 't1', 2)).toBe(1);
    expect(dragCount(view, 't1', 3)).toBe(0);
  });

  it('R5: refuses a pick-up that is not a run', () => {
    expect(dragCount(view, 't2', 0)).toBe(0);
    expect(dragCount(view, 't2', 1)).toBe(2);
  });

  it('takes only the top card of the waste and of a foundation', () => {
    expect(dragCount(view, 'waste', 1)).toBe(1);
    expect(dragCount(view, 'waste', 0)).toBe(0);
    expect(dragCount(view, 'fS', 0)).toBe(1);
    expect(dragCount(view, 'stock', 0)).toBe(0);
  });

  it('R9: no pick-up from a foundation when foundationToTableau is off', () => {
    const v = makeView({ foundations: { fS: '2S' }, tableau: [[0, ['3H']]] });
    expect(dragCount({ ...v, options: { ...v.options, foundationToTableau: false } }, 'fS', 0)).toBe(0);
    expect(dragCount({ ...v, options: { ...v.options, foundationToTableau: true } }, 'fS', 0)).toBe(1);
  });

  it('R5 wholePile: the whole face-up run or the top card alone', () => {
    const v = makeView({
      preset: 'bicycle',
      tableau: [
        [1, ['9H', '8C', '7D']],
        [0, ['8S']],
        [0, ['TS']],
      ],
    });
    expect(dragCount(v, 't1', 0)).toBe(3);
    expect(dragCount(v, 't1', 1)).toBe(0);
    expect(dragCount(v, 't1', 2)).toBe(1);
    expect(isLegalViewMove(v, { type: 'move', from: 't1', to: 't2', count: 1 })).toBe(false);
    expect(isLegalViewMove(v, { type: 'move', from: 't1', to: 't3', count: 3 })).toBe(true);
  });

  it('nothing is picked up once the game is over', () => {
    expect(dragCount({ ...view, status: 'resigned' }, 't1', 0)).toBe(0);
    expect(dragCount({ ...view, status: 'won' }, 'waste', 1)).toBe(0);
  });
});

describe('targets, double-click, keyboard and stock (R4, R7, R8, R10, R11, R16)', () => {
  const view = makeView({
    tableau: [
      [0, ['9H', '8C']],
      [3, ['9C']],
      [0, []],
      [1, ['KD']],
      [0, ['AH']],
      [0, ['7H']],
      [0, ['TS']],
    ],
    waste: ['7D'],
    foundations: { fC: 'AC' },
    stock: 5,
  });

  it('R4/R7/R8: every legal target of a pick-up', () => {
    expect(legalTargets(view, 't1', 2)).toEqual(['t7']);
    expect(legalTargets(view, 't1', 1)).toEqual([]);
    expect(legalTargets(view, 't4', 1)).toEqual(['t3']);
    expect(legalTargets(view, 'waste', 1)).toEqual(['t1']);
    expect(legalTargets(view, 't5', 1)).toEqual(['fH']);
  });

  it('refuses moves onto the stock or waste, runs to foundations and moves onto the same pile', () => {
    expect(validateViewMove(view, { type: 'move', from: 't5', to: 'waste', count: 1 })?.code).toBe(
      'to-stock-or-waste',
    );
    expect(validateViewMove(view, { type: 'move', from: 't1', to: 'fC', count: 2 })?.code).toBe(
      'count-to-foundation',
    );
    expect(validateViewMove(view, { type: 'move', from: 't1', to: 't1', count: 1 })?.code).toBe('same-pile');
  });

  it('double-click/tap: foundation first, else a tableau pile, non-empty before empty', () => {
    expect(smartMove(view, 't5', 0)).toEqual({ type: 'move', from: 't5', to: 'fH', count: 1 });
    expect(smartMove(view, 'waste', 0)).toEqual({ type: 'move', from: 'waste', to: 't1', count: 1 });
    expect(smartMove(view, 't4', 0)).toEqual({ type: 'move', from: 't4', to: 't3', count: 1 });
    expect(smartMove(view, 't6', 0)).toEqual({ type: 'move', from: 't6', to: 't1', count: 1 });
    expect(smartMove(view, 't7', 0)).toBeNull();
  });

  it('R7: a King heading an otherwise empty pile does not hop between empty piles', () => {
    const v = makeView({
      tableau: [
        [0, ['KD']],
        [0, []],
      ],
    });
    expect(smartMove(v, 't1', 0)).toBeNull();
  });

  it('keyboard: the count of a move between two piles comes from the target', () => {
    const v = makeView({
      tableau: [
        [0, ['TD', '9C', '8H']],
        [0, ['TH']],
        [0, ['9S']],
        [0, []],
      ],
    });
    expect(resolveCount(v, 't1', 't2')).toBe(2);
    expect(resolveCount(v, 't1', 't3')).toBe(1);
    expect(resolveCount(v, 't1', 't4')).toBeNull();
  });

  it('R8: the foundation move of a top card', () => {
    expect(foundationMove(view, 't5')).toEqual({ type: 'move', from: 't5', to: 'fH', count: 1 });
    expect(foundationMove(view, 't1')).toBeNull();
  });

  it('R10/R11: the stock draws, then recycles while redeals remain', () => {
    expect(stockMove(view)).toEqual({ type: 'draw' });
    expect(stockMove(makeView({ waste: ['2C'] }))).toEqual({ type: 'recycle' });
    expect(stockMove(makeView({ waste: ['2C'], preset: 'strict-draw3' }))).toEqual({ type: 'recycle' });
    expect(stockMove(makeView())).toBeNull();
  });

  it('R11: no recycle once the redeal limit is used up', () => {
    const v = makeView({ waste: ['2C'], preset: 'strict-draw3' });
    const limit = v.options.redeals;
    expect(limit).not.toBeNull();
    expect(stockMove({ ...v, recycles: limit ?? 0 })).toBeNull();
  });

  it('R16: the last pass in place of a redeal while available; after it, one card per draw', () => {
    const lp = { type: 'last-pass' } as const;
    const ready = makeView({ preset: 'draw3-last-pass', waste: ['2C', '3C'] });
    expect(isLegalViewMove(ready, lp)).toBe(true);
    expect(isLegalViewMove(ready, { type: 'recycle' })).toBe(true);
    expect(stockMove(ready)).toEqual({ type: 'recycle' });
    expect(drawCount(ready)).toBe(3);
    expect(isLegalViewMove(makeView({ preset: 'draw3-last-pass', waste: ['2C'], stock: 3 }), lp)).toBe(false);
    expect(isLegalViewMove(makeView({ preset: 'classic-draw3', waste: ['2C'] }), lp)).toBe(false);
    const taken = makeView({ preset: 'draw3-last-pass', stock: 5, lastPass: 'taken', redealsLeft: 0 });
    expect(drawCount(taken)).toBe(1);
    const over = makeView({ preset: 'draw3-last-pass', waste: ['2C'], lastPass: 'taken', redealsLeft: 0 });
    expect(isLegalViewMove(over, lp)).toBe(false);
    expect(isLegalViewMove(over, { type: 'recycle' })).toBe(false);
    expect(stockMove(over)).toBeNull();
  });

  it('R12/R13: nothing is legal once won or resigned', () => {
    const won = makeView({ tableau: [[0, ['AH']]], status: 'won' });
    expect(validateViewMove(won, { type: 'move', from: 't1', to: 'fH', count: 1 })?.code).toBe('game-over');
  });
});

describe('optimistic application and auto-complete (R6, R8, R9, R15)', () => {
  it('R8/R9: plays to and back from a foundation', () => {
    const v = makeView({
      tableau: [
        [0, ['2H']],
        [0, ['3S']],
      ],
      foundations: { fH: 'AH' },
    });
    const up = applyViewMove(v, { type: 'move', from: 't1', to: 'fH', count: 1 });
    expect(up?.foundations.fH).toBe('2H');
    const back = up && applyViewMove(up, { type: 'move', from: 'fH', to: 't2', count: 1 });
    expect(back?.foundations.fH).toBe('AH');
    expect(back?.tableau[1]?.faceUp).toEqual(['3S', '2H']);
    expect(v.tableau[1]?.faceUp).toEqual(['3S']); // the input is untouched
  });

  it('does not apply illegal moves, draws or recycles', () => {
    const v = makeView({ tableau: [[0, ['2H']]], stock: 3 });
    expect(applyViewMove(v, { type: 'move', from: 't1', to: 'fS', count: 1 })).toBeNull();
    expect(applyViewMove(v, { type: 'draw' })).toBeNull();
  });

  it('R15: auto-complete plays the lowest card first', () => {
    const v = makeView({
      tableau: [
        [0, ['3H']],
        [0, ['2C']],
        [0, ['2H']],
      ],
      foundations: { fH: 'AH', fC: 'AC' },
    });
    expect(nextFoundationMove(v)).toEqual({ type: 'move', from: 't2', to: 'fC', count: 1 });
  });

  it('R15: the safe auto-move of a view sends low cards up and keeps needed ones', () => {
    const v = makeView({
      tableau: [
        [0, ['3H']],
        [0, ['4D']],
      ],
      foundations: { fH: '2H', fC: 'AC', fS: 'AS', fD: '3D' },
    });
    // 3H: rank 3 ≤ min(black foundations 1, 1) + 2 → safe; 4D: 4 > 3 → may be needed for a black 3.
    expect(safeViewAutoMove(v)).toEqual({ type: 'move', from: 't1', to: 'fH', count: 1 });
    const kept = makeView({ tableau: [[0, ['4D']]], foundations: { fD: '3D', fC: 'AC', fS: 'AS' } });
    expect(safeViewAutoMove(kept)).toBeNull();
    expect(safeViewAutoMove(makeView({ waste: ['AS'] }))).toEqual({
      type: 'move',
      from: 'waste',
      to: 'fS',
      count: 1,
    });
  });

  it('R15: no safe auto-move from a card the view does not show (a pile whose top is face down)', () => {
    // The hidden cards are the four Kings, each safe on its Queen: the made-up one must never be sent up.
    const v = makeView({ tableau: [[1, []]], foundations: { fH: 'QH', fD: 'QD', fC: 'QC', fS: 'QS' } });
    expect(safeViewAutoMove(v)).toBeNull();
  });

  it('R8: the cards on the foundations are the sum of their top ranks', () => {
    expect(foundationCount({ fC: 'AC', fD: null, fH: 'TH', fS: 'KS' })).toBe(1 + 10 + 13);
    expect(foundationCount({ fC: null, fD: null, fH: null, fS: null })).toBe(0);
  });
});

describe('card codes read for display (R1)', () => {
  it('reads rank, suit and colour; refuses what is not one of the 52 codes', () => {
    expect(cardInfo('TH')).toEqual({ code: 'TH', rank: 10, suit: 'H', red: true });
    expect(cardInfo('AS')).toEqual({ code: 'AS', rank: 1, suit: 'S', red: false });
    expect(cardInfo('KD')?.red).toBe(true);
    expect(cardInfo('1H')).toBeUndefined();
    expect(cardInfo('TX')).toBeUndefined();
    expect(cardInfo('th')).toBeUndefined();
    expect(codeOf(12, 'C')).toBe('QC');
  });
});
