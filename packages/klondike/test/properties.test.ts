/**
 * Property-based tests (fast-check) over random deals and random sequences of moves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCKED_SEARCH_LIMIT,
  PILE_IDS,
  PRESET_NAMES,
  applyMove,
  dealFromNumber,
  gameStatus,
  hiddenCards,
  isBlocked,
  isOver,
  legalMoves,
  newGame,
  playerView,
  positionKey,
  progressesAtOnce,
  resolveOptions,
  sameMove,
  statusAfterMove,
  undo,
  type GameOptions,
  type GameState,
  type Move,
  type PresetName,
} from '../src/index.js';

const NUM_RUNS = 200;

/** A random reachable game: a preset, a deal number, and a list of choices among the legal moves. */
const gameArb = fc.record({
  preset: fc.constantFrom(...PRESET_NAMES),
  dealNumber: fc.integer({ min: 1, max: 0xffffffff }),
  choices: fc.array(fc.nat(), { minLength: 0, maxLength: 150 }),
});

/** Plays the game and calls `visit` on every state reached (including the start). */
function play(
  g: { preset: PresetName; dealNumber: number; choices: number[] },
  visit: (s: GameState) => void,
): GameState {
  const deal = dealFromNumber(g.dealNumber);
  if (!deal.ok) throw new Error('deal');
  let state = newGame(deal.value, resolveOptions(g.preset));
  visit(state);
  for (const choice of g.choices) {
    const legal = legalMoves(state);
    if (legal.length === 0) break;
    const r = applyMove(state, legal[choice % legal.length] as Move);
    if (!r.ok) throw new Error(`generated legal move refused: ${r.error.code}`);
    state = r.value;
    visit(state);
  }
  return state;
}

const anyMoveArb: fc.Arbitrary<Move> = fc.oneof(
  fc.constant({ type: 'draw' } as const),
  fc.constant({ type: 'recycle' } as const),
  fc.constant({ type: 'last-pass' } as const),
  fc.record({
    type: fc.constant('move' as const),
    from: fc.constantFrom(...PILE_IDS),
    to: fc.constantFrom(...PILE_IDS),
    count: fc.integer({ min: 0, max: 14 }),
  }),
);

function allCards(s: GameState): number[] {
  const cards: number[] = [...s.stock, ...s.waste];
  for (const p of s.tableau) cards.push(...p.cards);
  s.foundations.forEach((h, suit) => {
    for (let r = 1; r <= h; r++) cards.push(suit * 13 + r - 1);
  });
  return cards;
}

/** R13's measures of progress, computed here independently of the rules package's own. */
function measuresOf(s: GameState): [number, number, number, number] {
  const f = s.foundations;
  return [
    (f[0] as number) + (f[1] as number) + (f[2] as number) + (f[3] as number),
    s.tableau.reduce((n, p) => n + p.faceDown, 0),
    s.stock.length + s.waste.length,
    s.tableau.filter((p) => p.cards.length === 0).length,
  ];
}

function progressedFrom(a: GameState, b: GameState): boolean {
  const [fa, da, sa, ea] = measuresOf(a);
  const [fb, db, sb, eb] = measuresOf(b);
  return fb > fa || db < da || sb < sa || eb > ea;
}

/** docs/rules.md R13 as a plain breadth-first search keying every successor at once: the reference. */
function blockedReference(state: GameState): boolean {
  if (isOver(state)) return false;
  const seen = new Set<string>([positionKey(state)]);
  const queue: GameState[] = [state];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as GameState;
    for (const move of legalMoves(current)) {
      const r = applyMove(current, move);
      if (!r.ok) continue;
      if (progressedFrom(state, r.value)) return false;
      const key = positionKey(r.value);
      if (seen.has(key)) continue;
      if (seen.size >= BLOCKED_SEARCH_LIMIT) return false;
      seen.add(key);
      queue.push(r.value);
    }
  }
  return true;
}

describe('properties of the rules over random games', () => {
  it('R13: a move progressesAtOnce names does make progress once played', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        play(g, (s) => {
          for (const move of legalMoves(s)) {
            if (!progressesAtOnce(s, move)) continue;
            const r = applyMove(s, move);
            expect(r.ok && progressedFrom(s, r.value)).toBe(true);
          }
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('R13: isBlocked (cheap progress first) answers as the plain breadth-first search on every state reached', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        play(g, (s) => expect(isBlocked(s)).toBe(blockedReference(s)));
      }),
      { numRuns: NUM_RUNS / 2 },
    );
  });

  it('R13: statusAfterMove answers as gameStatus after every move, stuck games and stock cycling included', () => {
    // Random games that turn, after `free` random moves, into a player who only makes moves without progress
    // (draws, redeals, tableau shuffles, foundation to tableau): the positions where the shortcut applies
    // and where the R13 search is expensive.
    const stuckArb = fc.record({
      preset: fc.constantFrom(...PRESET_NAMES),
      dealNumber: fc.integer({ min: 1, max: 0xffffffff }),
      free: fc.nat({ max: 120 }),
      choices: fc.array(fc.nat(), { minLength: 0, maxLength: 60 }),
    });
    let unchanged = 0;
    let stayedBlocked = 0;
    fc.assert(
      fc.property(stuckArb, (g) => {
        const deal = dealFromNumber(g.dealNumber);
        if (!deal.ok) throw new Error('deal');
        let state = newGame(deal.value, resolveOptions(g.preset));
        let status = gameStatus(state);
        for (let i = 0; i < g.free + g.choices.length; i++) {
          const choice = i < g.free ? i * 7919 + g.dealNumber : (g.choices[i - g.free] as number);
          const all = legalMoves(state);
          const quiet = i < g.free ? all : all.filter((m) => !progressesAtOnce(state, m));
          const pool = quiet.length > 0 ? quiet : all;
          if (pool.length === 0) break;
          const move = pool[choice % pool.length] as Move;
          const r = applyMove(state, move);
          if (!r.ok) throw new Error(r.error.code);
          const next = statusAfterMove(state, status, move, r.value);
          const truth = gameStatus(r.value);
          expect(next).toBe(truth);
          if (next === status) {
            unchanged++;
            if (status === 'blocked') stayedBlocked++;
          }
          state = r.value;
          status = truth;
        }
      }),
      { numRuns: NUM_RUNS },
    );
    // The runs did reach what the test is about: many moves after which the status is the one before, some
    // of them in a blocked game (a draw or a shuffle there keeps it blocked).
    expect(unchanged).toBeGreaterThan(1000);
    expect(stayedBlocked).toBeGreaterThan(0);
  });

  it('R1: the 52 cards are conserved after any sequence of legal moves', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        play(g, (s) => {
          const cards = allCards(s);
          expect(cards.length).toBe(52);
          expect(new Set(cards).size).toBe(52);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('every generated legal move applies (and the tableau face-up cards stay runs, R4/R5)', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        play(g, (s) => {
          for (const m of legalMoves(s)) expect(applyMove(s, m).ok).toBe(true);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('a move applies exactly when legalMoves lists it; an illegal move is refused and changes nothing', () => {
    fc.assert(
      fc.property(gameArb, fc.array(anyMoveArb, { minLength: 1, maxLength: 20 }), (g, probes) => {
        const state = play(g, () => {});
        const before = structuredClone(state);
        const legal = legalMoves(state);
        for (const m of probes) {
          const r = applyMove(state, m);
          expect(r.ok).toBe(legal.some((l) => sameMove(l, m)));
          if (!r.ok) expect(typeof r.error.message).toBe('string');
        }
        expect(state).toEqual(before);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('R14: undo after apply restores the prior state exactly', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        play(g, (s) => {
          for (const m of legalMoves(s)) {
            const r = applyMove(s, m);
            if (!r.ok) continue;
            if (gameStatus(r.value) === 'won') continue; // a won game is over: no undo
            const u = undo(r.value);
            expect(u.ok).toBe(true);
            if (u.ok) expect(u.value).toEqual(s);
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it('no view of any reachable state contains a face-down or stock card', () => {
    fc.assert(
      fc.property(gameArb, fc.nat({ max: 3_600_000 }), (g, elapsed) => {
        play(g, (s) => {
          const json = JSON.stringify(playerView(s, elapsed));
          for (const code of hiddenCards(s)) expect(json).not.toContain(`"${code}"`);
          const view = playerView(s, elapsed);
          expect(view.stock.count).toBe(s.stock.length);
          expect(
            view.tableau.reduce((n, p) => n + p.faceDown + p.faceUp.length, 0) +
              view.stock.count +
              view.waste.length,
          ).toBe(52 - s.foundations.reduce((a, b) => a + b, 0));
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('R13: a view built with the status the caller already has equals the view that computes it', () => {
    fc.assert(
      fc.property(gameArb, fc.nat({ max: 3_600_000 }), (g, elapsed) => {
        play(g, (s) => {
          const status = gameStatus(s);
          expect(playerView(s, elapsed, status)).toEqual(playerView(s, elapsed));
          expect(playerView(s, elapsed).status).toBe(status);
        });
      }),
      { numRuns: 40 },
    );
  });

  it('the view holds only counts for hidden cards: its keys are exactly the PlayerView fields', () => {
    const deal = dealFromNumber(7);
    if (!deal.ok) throw new Error('deal');
    const view = playerView(newGame(deal.value, resolveOptions('classic-draw3')), 0);
    expect(Object.keys(view.stock)).toEqual(['count']);
    for (const p of view.tableau) expect(Object.keys(p).sort()).toEqual(['faceDown', 'faceUp']);
  });
});

/**
 * R16 (`finalSinglePass`): random games under the option, with every draw count and redeal limit, played
 * with a bias to the stock (a `stock` choice plays the draw, recycle or last pass on offer) so that the
 * last pass is taken in many of them.
 */
const lastPassGameArb = fc.record({
  options: fc.record({
    draw: fc.constantFrom(1 as const, 3 as const, 3 as const),
    redeals: fc.constantFrom(null, null, 0, 1, 2),
    scoring: fc.constantFrom('standard' as const, 'vegas' as const),
  }),
  dealNumber: fc.integer({ min: 1, max: 0xffffffff }),
  choices: fc.array(fc.oneof(fc.nat(), fc.constant('stock' as const), fc.constant('pass' as const)), {
    minLength: 30,
    maxLength: 150,
    size: 'max',
  }),
});
type LastPassGame = typeof lastPassGameArb extends fc.Arbitrary<infer T> ? T : never;

let lastPassesTaken = 0;

function playLastPass(g: LastPassGame, visit: (s: GameState) => void): GameState {
  const deal = dealFromNumber(g.dealNumber);
  if (!deal.ok) throw new Error('deal');
  const options: GameOptions = resolveOptions('draw3-last-pass', g.options);
  let state = newGame(deal.value, options);
  visit(state);
  for (const choice of g.choices) {
    const legal = legalMoves(state);
    if (legal.length === 0) break;
    const stock = legal.filter((m) => m.type !== 'move');
    let move: Move;
    if (choice === 'pass')
      move = stock.find((m) => m.type === 'last-pass') ?? ((stock[0] ?? legal[0]) as Move);
    else if (choice === 'stock') move = (stock[0] ?? legal[0]) as Move;
    else move = legal[choice % legal.length] as Move;
    const r = applyMove(state, move);
    if (!r.ok) throw new Error(`generated legal move refused: ${r.error.code}`);
    if (move.type === 'last-pass') lastPassesTaken++;
    state = r.value;
    visit(state);
  }
  return state;
}

describe('R16: properties of the rules over random games with the last pass', () => {
  it('R16: the 52 cards are conserved, and after the last pass every draw turns one card', () => {
    fc.assert(
      fc.property(lastPassGameArb, (g) => {
        let previous: GameState | null = null;
        playLastPass(g, (s) => {
          const cards = allCards(s);
          expect(cards.length).toBe(52);
          expect(new Set(cards).size).toBe(52);
          if (
            previous?.lastPass === true &&
            s.moves === previous.moves + 1 &&
            s.history?.move.type === 'draw'
          )
            expect(s.waste.length - previous.waste.length).toBe(1);
          previous = s;
        });
      }),
      { numRuns: NUM_RUNS },
    );
    expect(lastPassesTaken).toBeGreaterThan(20);
  }, 30_000); // fast-check runs; generous under a loaded machine

  it('R16: a move applies exactly when legalMoves lists it; an illegal move is refused and changes nothing', () => {
    fc.assert(
      fc.property(lastPassGameArb, fc.array(anyMoveArb, { minLength: 1, maxLength: 20 }), (g, probes) => {
        const state = playLastPass(g, () => {});
        const before = structuredClone(state);
        const legal = legalMoves(state);
        for (const m of [...probes, { type: 'last-pass' } as const, { type: 'recycle' } as const]) {
          const r = applyMove(state, m);
          expect(r.ok).toBe(legal.some((l) => sameMove(l, m)));
          if (!r.ok) expect(typeof r.error.message).toBe('string');
        }
        expect(state).toEqual(before);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 30_000); // fast-check runs; generous under a loaded machine

  it('R16/R14: undo after apply restores the prior state exactly', () => {
    fc.assert(
      fc.property(lastPassGameArb, (g) => {
        playLastPass(g, (s) => {
          for (const m of legalMoves(s)) {
            const r = applyMove(s, m);
            if (!r.ok || gameStatus(r.value) === 'won') continue;
            const u = undo(r.value);
            expect(u.ok).toBe(true);
            if (u.ok) expect(u.value).toEqual(s);
          }
        });
      }),
      { numRuns: 40 },
    );
  }, 30_000); // fast-check runs; generous under a loaded machine

  it('R16: no view contains a face-down or stock card, and the view says whether the last pass is left', () => {
    fc.assert(
      fc.property(lastPassGameArb, (g) => {
        playLastPass(g, (s) => {
          const view = playerView(s, 0);
          const json = JSON.stringify(view);
          for (const code of hiddenCards(s)) expect(json).not.toContain(`"${code}"`);
          expect(view.lastPass).toBe(
            s.lastPass ? 'taken' : view.redealsLeft === null || view.redealsLeft > 0 ? 'available' : 'none',
          );
          if (s.stock.length === 0 && s.waste.length > 0)
            expect(legalMoves(s).some((m) => m.type === 'last-pass')).toBe(view.lastPass === 'available');
        });
      }),
      { numRuns: 25 },
    );
  }, 30_000); // a blocked search (R13) per view
});
