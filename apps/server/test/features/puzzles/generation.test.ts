/**
 * Cutting puzzles (features/puzzles/generation.ts, position.ts), without a database: the arrangements of the
 * unseen cards, the only-move check against this test's own enumeration and solver calls, the limits of a
 * game's generation, and the themes.
 */
import {
  type Card,
  type GameAction,
  type GameState,
  type Move,
  PRESETS,
  applyMove,
  dealFromNumber,
  hiddenCards,
  isWon,
  legalMoves,
  newGame,
  playerView,
  sameMove,
} from '@klondike/rules';
import { solve } from '@klondike/solver';
import { describe, expect, it } from 'vitest';
import { generatePuzzles, onlyMove, themesOf } from '../../../src/features/puzzles/generation.js';
import {
  arrangements,
  loadPosition,
  storePosition,
  unseenCards,
  unseenCount,
} from '../../../src/features/puzzles/position.js';
import { PositionSolver } from '../../../src/features/signals/positions.js';
import { prng } from '../../support/helpers.js';
import { botGame } from '../../support/puzzle-players.js';

const DRAW1 = PRESETS['classic-draw1'];

function deal(n: number) {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  return d.value;
}

/** The positions of a bot's game, start included. */
function positions(n: number, slip: boolean, options = DRAW1): GameState[] {
  const moves = botGame(deal(n), options, prng(n), slip);
  let s = newGame(deal(n), options);
  const out = [s];
  for (const m of moves) {
    const r = applyMove(s, m);
    if (!r.ok) break;
    s = r.value;
    out.push(s);
  }
  return out;
}

describe('positions and arrangements', () => {
  it('a stored position loads back to the same cards; its unseen cards are what the view hides', () => {
    for (const s of positions(3, true).filter((_, i) => i % 17 === 0)) {
      const back = loadPosition(storePosition(s));
      expect(back.tableau).toEqual(s.tableau);
      expect(back.stock).toEqual(s.stock);
      expect(back.waste).toEqual(s.waste);
      expect(back.foundations).toEqual(s.foundations);
      expect(unseenCount(s)).toBe(hiddenCards(s).length);
      expect(playerView(back, 0).tableau).toEqual(playerView(s, 0).tableau);
    }
  });

  it('k unseen cards give k! arrangements, each the same view with the unseen cards permuted', () => {
    const s = positions(1, false).find((p) => unseenCount(p) === 4 && !isWon(p));
    expect(s).toBeDefined();
    if (s === undefined) return;
    const all = arrangements(s);
    expect(all).toHaveLength(24);
    const keys = new Set(all.map((a) => unseenCards(a).join(',')));
    expect(keys.size).toBe(24);
    const sorted = [...unseenCards(s)].sort((a, b) => a - b);
    for (const a of all) {
      expect([...unseenCards(a)].sort((x, y) => x - y)).toEqual(sorted);
      expect(playerView(a, 0)).toEqual(playerView(s, 0));
    }
  });
});

/** This test's own only-move verdict: the one move won in every arrangement, every other impossible. */
function ownOnlyMove(s: GameState): Move | null | 'unknown' {
  let only: Move | null = null;
  const cards: Card[] = unseenCards(s);
  const perms: Card[][] = [];
  const permute = (rest: Card[], acc: Card[]): void => {
    if (rest.length === 0) perms.push(acc);
    rest.forEach((c, i) => permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, c]));
  };
  permute(cards, []);
  for (const perm of perms) {
    let i = 0;
    const tableau = s.tableau.map((p) => {
      const down = perm.slice(i, i + p.faceDown);
      i += p.faceDown;
      return { faceDown: p.faceDown, cards: [...down, ...p.cards.slice(p.faceDown)] };
    });
    const a: GameState = { ...s, tableau, stock: perm.slice(i) };
    const winning: Move[] = [];
    for (const m of legalMoves(a)) {
      const r = applyMove(a, m);
      if (!r.ok) return 'unknown';
      const v = solve(r.value, a.options, { maxNodes: 50_000, shortenMs: 0 }).verdict;
      if (v === 'unknown') return 'unknown';
      if (v === 'won') winning.push(m);
    }
    if (winning.length !== 1) return null;
    const w = winning[0] as Move;
    if (only !== null && !sameMove(only, w)) return null;
    only = w;
  }
  return only;
}

describe('only-move', () => {
  it('agrees with an independent enumeration on the late positions of won and lost games', () => {
    let checked = 0;
    for (const [n, slip] of [
      [3, true],
      [5, true],
      [6, false],
      [9, true],
    ] as const) {
      const solver = new PositionSolver(50_000);
      for (const s of positions(n, slip)) {
        if (isWon(s) || unseenCount(s) > 3 || legalMoves(s).length < 2) continue;
        const mine = onlyMove(s, solver, () => true);
        const own = ownOnlyMove(s);
        if (own === 'unknown' || (!mine.fair && mine.reason === 'unknown')) continue;
        checked++;
        if (own === null) expect(mine.fair).toBe(false);
        else expect(mine).toEqual({ fair: true, move: own });
        if (checked >= 12) break;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('a spent budget rejects the candidate', () => {
    const s = positions(1, false).find((p) => !isWon(p) && unseenCount(p) <= 5 && legalMoves(p).length >= 2);
    expect(s).toBeDefined();
    if (s === undefined) return;
    expect(onlyMove(s, new PositionSolver(50_000), () => false)).toEqual({ fair: false, reason: 'budget' });
  });
});

describe('a game’s generation', () => {
  it('a won game gives a clear-the-table puzzle: no unseen card, the par a line that wins', () => {
    const moves = botGame(deal(1), DRAW1, prng(1), false);
    const r = generatePuzzles(
      deal(1),
      DRAW1,
      moves.map((move): GameAction => ({ type: 'move', move })),
    );
    expect(r).not.toBeNull();
    const clear = r?.puzzles.find((p) => p.goal === 'clear-the-table');
    expect(clear).toBeDefined();
    if (clear === undefined || r === null) return;
    const s = loadPosition(clear.position);
    expect(unseenCount(s)).toBe(0);
    expect(s.waste.length).toBeGreaterThan(0);
    expect(clear.solution).toHaveLength(clear.par);
    let x = s;
    for (const m of clear.solution) {
      const a = applyMove(x, m);
      expect(a.ok).toBe(true);
      if (a.ok) x = a.value;
    }
    expect(isWon(x)).toBe(true);
    expect(clear.themes).toContain('clear-the-table');
    expect(r.stats.fair).toBe(r.puzzles.length);
    expect(r.stats.candidates).toBeGreaterThanOrEqual(r.stats.fair);
  });

  it('keeps its limits: puzzles per game, solver calls; a log that does not replay gives null', () => {
    const moves = botGame(deal(5), DRAW1, prng(5), true);
    const actions = moves.map((move): GameAction => ({ type: 'move', move }));
    const r = generatePuzzles(deal(5), DRAW1, actions, {
      maxUnseen: 5,
      perGame: 1,
      solveNodes: 20_000,
      maxSolves: 7,
      minimalNodes: 100_000,
    });
    expect(r?.puzzles.length ?? 0).toBeLessThanOrEqual(1);
    expect(r?.stats.solves ?? 0).toBeLessThanOrEqual(7);
    expect(generatePuzzles(deal(5), DRAW1, [{ type: 'move', move: { type: 'recycle' } }])).toBeNull();
  });

  it('themes come from the answer', () => {
    const start = newGame(deal(2), DRAW1);
    expect(themesOf('only-move', start, [{ type: 'draw' }])).toEqual(['only-move', 'stock-timing']);
    const uncover = legalMoves(start).find(
      (m) => m.type === 'move' && m.from.startsWith('t') && m.to.startsWith('t'),
    );
    if (uncover !== undefined) expect(themesOf('only-move', start, [uncover])).toContain('uncover');
    const long = Array.from({ length: 20 }, (): Move => ({ type: 'draw' }));
    expect(themesOf('clear-the-table', start, long)).toEqual(['clear-the-table', 'long']);
  });
});
