import { describe, expect, it } from 'vitest';
import {
  IS_RED,
  PRESETS,
  RANK,
  applyMove,
  autoCompleteMoves,
  canAutoComplete,
  currentScore,
  gameStatus,
  isBlocked,
  legalMoves,
  playerView,
  resign,
  safeAutoMove,
  statusAfterMove,
  undo,
  type GameState,
  type Move,
  type MoveErrorCode,
} from '../src/index.js';
import { c, position } from './helpers.js';

const mv = (from: string, to: string, count = 1): Move => ({ type: 'move', from, to, count }) as Move;

function apply(state: GameState, move: Move): GameState {
  const r = applyMove(state, move);
  if (!r.ok) throw new Error(`expected legal: ${r.error.code}`);
  return r.value;
}

function refused(state: GameState, move: Move, code: MoveErrorCode): void {
  const r = applyMove(state, move);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.code).toBe(code);
}

describe('R1 deck', () => {
  it('R1: clubs and spades are black, diamonds and hearts red; Ace low', () => {
    expect([c('AC'), c('AS')].map((x) => IS_RED[x])).toEqual([0, 0]);
    expect([c('AD'), c('AH')].map((x) => IS_RED[x])).toEqual([1, 1]);
    expect(RANK[c('AC')]).toBe(1);
    expect(RANK[c('KH')]).toBe(13);
    expect(RANK[c('TD')]).toBe(10);
  });
});

describe('R3/R12 objective and win', () => {
  it('R12: the game is won when the last card reaches its foundation', () => {
    const s = position({ tableau: ['KS'], foundations: [13, 13, 13, 12] });
    expect(gameStatus(s)).toBe('playing');
    const won = apply(s, mv('t1', 'fS'));
    expect(gameStatus(won)).toBe('won');
    expect(legalMoves(won)).toEqual([]);
    refused(won, { type: 'draw' }, 'game-over');
  });
});

describe('R4 building on the tableau', () => {
  const s = position({ tableau: ['9H', '8C', '8D', '7C', '9S'] });
  it('R4: a black 8 goes on a red 9', () => {
    const r = apply(s, mv('t2', 't1'));
    expect(playerView(r, 0).tableau[0]?.faceUp).toEqual(['9H', '8C']);
  });
  it('R4: same colour is refused', () => refused(s, mv('t3', 't1'), 'tableau-build'));
  it('R4: any other rank is refused', () => refused(s, mv('t4', 't1'), 'tableau-build'));
  it('R4: a red 8 goes on a black 9', () => expect(applyMove(s, mv('t3', 't5')).ok).toBe(true));
});

describe('R5 moving runs', () => {
  const s = position({ tableau: ['5S | TH 9C 8D', 'JS', 'JC', 'KD | 9H', '9S', 'TD'] });
  it('R5: a face-up card moves with every card above it (anyRun)', () => {
    const r = apply(s, mv('t1', 't2', 3));
    expect(playerView(r, 0).tableau[1]?.faceUp).toEqual(['JS', 'TH', '9C', '8D']);
  });
  it('R5: part of a run may move under anyRun', () => {
    const r = apply(s, mv('t1', 't6', 2));
    expect(playerView(r, 0).tableau[5]?.faceUp).toEqual(['TD', '9C', '8D']);
    expect(playerView(r, 0).tableau[0]?.faceUp).toEqual(['TH']);
    expect(applyMove(s, mv('t1', 't5', 1)).ok).toBe(true);
  });
  it('R5: face-down cards cannot move', () => refused(s, mv('t1', 't2', 4), 'not-face-up'));
  it('R5: more cards than the pile holds is refused', () => refused(s, mv('t2', 't3', 5), 'empty-source'));
  it('R5: wholePile (bicycle) moves only the whole face-up run to the tableau', () => {
    const b = position({ tableau: ['5S | TH 9C 8D', 'JS', 'JC', 'KD | 9H', '9S'], preset: 'bicycle' });
    refused(b, mv('t1', 't5', 1), 'whole-pile-only');
    expect(applyMove(b, mv('t1', 't2', 3)).ok).toBe(true);
    expect(legalMoves(b).filter((m) => m.type === 'move' && m.from === 't1' && m.to.startsWith('t'))).toEqual(
      [mv('t1', 't2', 3), mv('t1', 't3', 3)],
    );
  });
  it('R5: wholePile still lets a single top card go to a foundation', () => {
    const b = position({ tableau: ['3S 2H'], foundations: [0, 0, 1, 0], preset: 'bicycle' });
    expect(applyMove(b, mv('t1', 'fH')).ok).toBe(true);
  });
  it('R5: cards that are not a run cannot move together', () => {
    const bad: GameState = { ...position({ tableau: ['TH 9C 9D', 'JS'] }) };
    refused(bad, mv('t1', 't2', 3), 'not-a-run');
  });
});

describe('R6 turning up', () => {
  it('R6: a move that uncovers a face-down card turns it up as part of the move, and undo turns it back', () => {
    const s = position({ tableau: ['4C 7D | 6S', '8D', '7H'] });
    const r = apply(s, mv('t1', 't3'));
    expect(r.tableau[0]).toEqual({ cards: [c('4C'), c('7D')], faceDown: 1 });
    expect(playerView(r, 0).tableau[0]).toEqual({ faceDown: 1, faceUp: ['7D'] });
    expect(r.score).toBe(5); // S1: turned up +5
    const u = undo(r);
    expect(u.ok && u.value.tableau[0]).toEqual(s.tableau[0]);
    expect(u.ok && u.value.score).toBe(0);
  });
});

describe('R7 empty columns', () => {
  const s = position({ tableau: ['', 'QH', '3C | KS QD', 'JC'] });
  it('R7: only a King may fill an empty column', () => refused(s, mv('t2', 't1'), 'king-to-empty'));
  it('R7: a run headed by a King may fill an empty column', () => {
    const r = apply(s, mv('t3', 't1', 2));
    expect(playerView(r, 0).tableau[0]?.faceUp).toEqual(['KS', 'QD']);
  });
  it('R7: a run headed by a Queen may not', () => refused(s, mv('t3', 't1', 1), 'king-to-empty'));
});

describe('R8 foundations', () => {
  const s = position({ tableau: ['AH', '2H', '3S | 2S', 'AS 5D'], waste: '3H' });
  it('R8: a foundation starts with an Ace', () => refused(s, mv('t2', 'fH'), 'foundation-build'));
  it('R8: built up by suit A, 2, 3', () => {
    let r = apply(s, mv('t1', 'fH'));
    r = apply(r, mv('t2', 'fH'));
    r = apply(r, mv('waste', 'fH'));
    expect(playerView(r, 0).foundations.fH).toBe('3H');
  });
  it('R8: the wrong suit foundation is refused', () => refused(s, mv('t1', 'fS'), 'foundation-build'));
  it('R8: only the top card of a tableau pile goes to a foundation', () =>
    refused(s, mv('t4', 'fS', 1), 'foundation-build'));
  it('R8: one card at a time', () => {
    const t = position({ tableau: ['3C 2H'], foundations: [2, 0, 1, 0] });
    refused(t, mv('t1', 'fH', 2), 'count-to-foundation');
  });
});

describe('R9 playing back from a foundation', () => {
  const s = position({ tableau: ['6C'], foundations: [0, 0, 5, 0] });
  it('R9: the top foundation card may come back onto the tableau (default)', () => {
    const r = apply(s, mv('fH', 't1'));
    expect(playerView(r, 0).foundations.fH).toBe('4H');
    expect(playerView(r, 0).tableau[0]?.faceUp).toEqual(['6C', '5H']);
  });
  it('R9: refused with foundationToTableau false', () => {
    const off = position({
      tableau: ['6C'],
      foundations: [0, 0, 5, 0],
      options: { foundationToTableau: false },
    });
    refused(off, mv('fH', 't1'), 'foundation-to-tableau-off');
    expect(legalMoves(off).some((m) => m.type === 'move' && m.from === 'fH')).toBe(false);
  });
  it('R9: it must still obey R4', () =>
    refused(position({ tableau: ['6H'], foundations: [0, 0, 5, 0] }), mv('fH', 't1'), 'tableau-build'));
});

describe('R10 drawing', () => {
  it('R10: draw 1 turns one card onto the waste', () => {
    const s = position({ stock: 'KS QS JS', preset: 'classic-draw1' });
    const r = apply(s, { type: 'draw' });
    expect(playerView(r, 0).waste).toEqual(['JS']);
    expect(r.stock.length).toBe(2);
  });
  it('R10: draw 3 turns three so that the third card drawn lies on top', () => {
    const s = position({ stock: '2S 3S 4S 5S', preset: 'classic-draw3' });
    const r = apply(s, { type: 'draw' });
    expect(playerView(r, 0).waste).toEqual(['5S', '4S', '3S']);
  });
  it('R10: draw 3 turns all that remain when fewer than three', () => {
    const s = position({ stock: '2S 3S', waste: 'AD', preset: 'classic-draw3' });
    const r = apply(s, { type: 'draw' });
    expect(playerView(r, 0).waste).toEqual(['AD', '3S', '2S']);
    expect(r.stock.length).toBe(0);
  });
  it('R10: only the top waste card is playable', () => {
    const s = position({ waste: 'AH 9C', tableau: [''] });
    refused(s, mv('waste', 'fH'), 'foundation-build');
    refused(s, mv('waste', 't1', 2), 'count-from-single');
  });
  it('R10: drawing from an empty stock is refused', () =>
    refused(position({ waste: 'AH' }), { type: 'draw' }, 'stock-empty'));
});

describe('R11 redealing', () => {
  it('R11: the waste turns over without shuffling; the first card that went to the waste is drawn first', () => {
    let s = position({ stock: '4S 3S 2S', preset: 'classic-draw1' });
    s = apply(apply(apply(s, { type: 'draw' }), { type: 'draw' }), { type: 'draw' });
    expect(playerView(s, 0).waste).toEqual(['2S', '3S', '4S']);
    s = apply(s, { type: 'recycle' });
    expect(s.recycles).toBe(1);
    s = apply(s, { type: 'draw' });
    expect(playerView(s, 0).waste).toEqual(['2S']);
  });
  it('R11: recycling while the stock has cards, or with an empty waste, is refused', () => {
    refused(position({ stock: '2S', waste: '3S' }), { type: 'recycle' }, 'stock-not-empty');
    refused(position({}), { type: 'recycle' }, 'waste-empty');
  });
  it('R11: the redeal limit is enforced (vegas-draw1: one pass)', () => {
    const s = position({ waste: '2S', preset: 'vegas-draw1' });
    refused(s, { type: 'recycle' }, 'no-redeals-left');
    expect(playerView(s, 0).redealsLeft).toBe(0);
  });
  it('R11: strict-draw3 allows 2 redeals (3 passes)', () => {
    let s = position({ waste: '2S', preset: 'strict-draw3' });
    s = apply(apply(s, { type: 'recycle' }), { type: 'draw' });
    s = apply(apply(s, { type: 'recycle' }), { type: 'draw' });
    refused(s, { type: 'recycle' }, 'no-redeals-left');
  });
  it('R11: unlimited redeals when redeals is null', () => {
    let s = position({ waste: '2S', preset: 'classic-draw3' });
    for (let i = 0; i < 10; i++) s = apply(apply(s, { type: 'recycle' }), { type: 'draw' });
    expect(s.recycles).toBe(10);
    expect(playerView(s, 0).redealsLeft).toBeNull();
  });
});

describe('R16 one switch to a final single pass', () => {
  const lp: Move = { type: 'last-pass' };
  const draw: Move = { type: 'draw' };
  const recycle: Move = { type: 'recycle' };
  const hasLastPass = (s: GameState): boolean => legalMoves(s).some((m) => m.type === 'last-pass');

  it('R16: the draw3-last-pass preset is draw 3, unlimited redeals, anyRun, standard scoring, with the switch', () => {
    expect(PRESETS['draw3-last-pass']).toMatchObject({
      draw: 3,
      redeals: null,
      tableauMoves: 'anyRun',
      scoring: 'standard',
      finalSinglePass: true,
    });
    for (const [name, options] of Object.entries(PRESETS))
      if (name !== 'draw3-last-pass') expect(options.finalSinglePass).toBe(false);
  });
  it('R16: the last pass is legal only in place of a redeal: stock empty and waste not empty', () => {
    const stocked = position({ stock: '2S', waste: '3S', preset: 'draw3-last-pass' });
    refused(stocked, lp, 'stock-not-empty');
    expect(hasLastPass(stocked)).toBe(false);
    const empty = position({ preset: 'draw3-last-pass' });
    refused(empty, lp, 'waste-empty');
    expect(hasLastPass(empty)).toBe(false);
    const ready = position({ waste: '2S 3S', preset: 'draw3-last-pass' });
    expect(legalMoves(ready).filter((m) => m.type !== 'move')).toEqual([recycle, lp]);
    expect(applyMove(ready, lp).ok).toBe(true);
  });
  it('R16: without finalSinglePass there is no last pass', () => {
    const s = position({ waste: '2S 3S', preset: 'classic-draw3' });
    refused(s, lp, 'last-pass-off');
    expect(hasLastPass(s)).toBe(false);
    expect(playerView(s, 0).lastPass).toBe('none');
  });
  it('R16: the waste turns over as in R11, then each draw turns one card', () => {
    let s = position({ stock: '7S 6S 5S 4S 3S 2S', preset: 'draw3-last-pass' });
    s = apply(apply(s, draw), draw);
    expect(playerView(s, 0).waste).toEqual(['2S', '3S', '4S', '5S', '6S', '7S']);
    s = apply(s, lp);
    expect(s.stock.length).toBe(6);
    expect(playerView(s, 0).waste).toEqual([]);
    s = apply(s, draw);
    expect(playerView(s, 0).waste).toEqual(['2S']); // the first card that went to the waste comes first
    s = apply(s, draw);
    expect(playerView(s, 0).waste).toEqual(['2S', '3S']);
    expect(s.stock.length).toBe(4);
  });
  it('R16: at most once, and no redeal after the last pass: when that stock is empty nothing more turns', () => {
    let s = apply(position({ waste: '2S 3S', preset: 'draw3-last-pass' }), lp);
    s = apply(apply(s, draw), draw);
    expect(s.stock.length).toBe(0);
    refused(s, recycle, 'last-pass-taken');
    refused(s, lp, 'last-pass-taken');
    refused(s, draw, 'stock-empty');
    expect(legalMoves(s).filter((m) => m.type !== 'move')).toEqual([]);
    expect(playerView(s, 0)).toMatchObject({ lastPass: 'taken', redealsLeft: 0 });
  });
  it('R16: the switch may come after any number of draw-3 redeals', () => {
    let s = position({ waste: '2S 3S 4S', preset: 'draw3-last-pass' });
    for (let i = 0; i < 5; i++) s = apply(apply(s, recycle), draw);
    expect(playerView(s, 0)).toMatchObject({ lastPass: 'available', redealsLeft: null });
    s = apply(s, lp);
    expect(s.recycles).toBe(6);
    expect(apply(s, draw).stock.length).toBe(2);
  });
  it('R16: undo across the switch is exact, and the draws after it turn three again', () => {
    const s0 = position({ stock: '5S 4S 3S 2S', preset: 'draw3-last-pass', score: 30, recycles: 4 });
    const s1 = apply(apply(s0, draw), draw);
    const s2 = apply(s1, lp);
    const s3 = apply(s2, draw);
    const u3 = undo(s3);
    expect(u3.ok && u3.value).toEqual(s2);
    const u2 = u3.ok ? undo(u3.value) : u3;
    expect(u2.ok && u2.value).toEqual(s1);
    if (!u2.ok) return;
    expect(u2.value.lastPass).toBe(false);
    expect(playerView(u2.value, 0)).toMatchObject({ lastPass: 'available', redealsLeft: null });
    const again = apply(apply(u2.value, recycle), draw);
    expect(playerView(again, 0).waste).toEqual(['2S', '3S', '4S']);
  });
  it('R16: scored like the recycle it replaces (S1 draw 3: free among the first three, then −20)', () => {
    const early = position({ waste: '2S', preset: 'draw3-last-pass', score: 50, recycles: 2 });
    expect(apply(early, lp)).toMatchObject({ score: 50, recycles: 3 });
    const late = position({ waste: '2S', preset: 'draw3-last-pass', score: 50, recycles: 3 });
    expect(apply(late, lp)).toMatchObject({ score: 30, recycles: 4 });
    const vegas = position({ waste: '2S', preset: 'vegas-draw3', options: { finalSinglePass: true } });
    expect(apply(vegas, lp).score).toBe(vegas.score);
  });
  it('R16: with limited redeals the last pass needs a redeal left, and uses it', () => {
    const options = { finalSinglePass: true };
    const none = position({ waste: '2S', preset: 'vegas-draw3', options, recycles: 2 });
    refused(none, lp, 'no-redeals-left');
    expect(playerView(none, 0).lastPass).toBe('none');
    const one = position({ waste: '2S', preset: 'strict-draw3', options, recycles: 1 });
    expect(playerView(one, 0)).toMatchObject({ lastPass: 'available', redealsLeft: 1 });
    expect(playerView(apply(one, lp), 0)).toMatchObject({ lastPass: 'taken', redealsLeft: 0, recycles: 2 });
  });
  it('R16/R13: a card only a one-card pass reaches keeps the game alive; once it is skipped, blocked', () => {
    // Draw 3 from KS QS AH (AH drawn first, then QS, KS on top): AH is never on top under draw 3.
    const tableau = ['QC | 2D', 'QD | 2C', 'JD | 2H', 'JC | 2S', 'TC | 4D', 'TH | 4H', 'TS | 4C'];
    expect(isBlocked(position({ tableau, stock: 'KS QS AH', preset: 'classic-draw3' }))).toBe(true);
    const s = position({ tableau, stock: 'KS QS AH', preset: 'draw3-last-pass' });
    expect(isBlocked(s)).toBe(false);
    // After the last pass has gone by AH, nothing can bring it back.
    const passed = apply(apply(apply(apply(apply(s, draw), lp), draw), draw), draw);
    expect(passed.stock.length).toBe(0);
    expect(gameStatus(passed)).toBe('blocked');
  });
});

describe('R13 blocked and resigning', () => {
  it('R13: a position where nothing can ever progress is blocked', () => {
    // Stock cards can never be played, no face-down card can be uncovered.
    const s = position({
      tableau: ['QS | 2H', 'KH | 2C'],
      stock: '9D 9S',
      waste: '7H',
      foundations: [0, 0, 0, 0],
    });
    expect(isBlocked(s)).toBe(true);
    expect(gameStatus(s)).toBe('blocked');
    expect(playerView(s, 0).status).toBe('blocked');
  });
  it('R13: a card reachable by drawing is progress, so not blocked', () => {
    const s = position({ tableau: ['QS | 2H'], stock: '9D AS 9S', waste: '7H' });
    expect(isBlocked(s)).toBe(false);
  });
  it('R13: a move that needs a foundation card back first is found (not blocked)', () => {
    // 5H must come back from the foundation onto 6C so that the waste 4S can be played on it.
    const s = position({
      tableau: ['KD | 6C'],
      foundations: [0, 0, 5, 0],
      waste: '4S',
      options: { redeals: 0 },
    });
    expect(isBlocked(s)).toBe(false);
  });
  it('R13: with foundationToTableau off that same position is blocked', () => {
    const s = position({
      tableau: ['KD | 6C'],
      foundations: [0, 0, 5, 0],
      waste: '4S',
      options: { redeals: 0, foundationToTableau: false },
    });
    expect(isBlocked(s)).toBe(true);
  });
  it('R13: a stock card that only a draw-3 pass would skip makes a draw-3 game blocked under one pass', () => {
    // Draw 3 from KS QS AH (AH drawn first, then QS, KS on top): AH is never on top.
    const tableau = ['QC | 2D', 'QD | 2C', 'JD | 2H', 'JC | 2S', 'TC | 4D', 'TH | 4H', 'TS | 4C'];
    const s = position({ tableau, stock: 'KS QS AH', preset: 'vegas-draw3', recycles: 2 });
    expect(isBlocked(s)).toBe(true);
    const d1 = position({ tableau, stock: 'KS QS AH', preset: 'vegas-draw1' });
    expect(isBlocked(d1)).toBe(false);
  });
  it('R13: statusAfterMove carries "blocked" through the draws and redeals of a stuck draw-1 game', () => {
    const draw: Move = { type: 'draw' };
    const tableau = ['QS | 2H', 'KH | 2C'];
    let s = position({ tableau, stock: '9D 9S', waste: '7H' });
    let status = gameStatus(s);
    expect(status).toBe('blocked');
    for (const move of [draw, draw, { type: 'recycle' }, draw] as const) {
      const next = apply(s, move);
      status = statusAfterMove(s, status, move, next);
      expect(status).toBe('blocked');
      expect(gameStatus(next)).toBe('blocked');
      s = next;
    }
  });
  it('R13: statusAfterMove searches again after a draw-3 draw from a waste that a later pass never shows', () => {
    // AH on the waste is playable now. Once three more cards cover it, every later pass turns AH, JS, QS
    // together with QS on top, so AH is never on top again: the game is blocked after this one draw.
    const draw: Move = { type: 'draw' };
    const tableau = ['QC | 2D', 'QD | 2C', 'JD | 2H', 'JC | 2S', 'TC | 4D', 'TH | 4H', 'TS | 4C'];
    const s = position({ tableau, stock: 'KS QS JS', waste: 'AH', preset: 'classic-draw3' });
    expect(gameStatus(s)).toBe('playing');
    const next = apply(s, draw);
    expect(statusAfterMove(s, 'playing', draw, next)).toBe('blocked');
    expect(gameStatus(next)).toBe('blocked');
  });
  it('R13: the player may resign at any time; a resigned game takes no more moves', () => {
    const s = position({ stock: '2S' });
    const r = resign(s);
    expect(r.ok && gameStatus(r.value)).toBe('resigned');
    if (!r.ok) return;
    refused(r.value, { type: 'draw' }, 'game-over');
    expect(resign(r.value).ok).toBe(false);
  });
});

describe('R14 undo', () => {
  it('R14: undo reverts a draw, a recycle and a foundation move with its points', () => {
    const s0 = position({ tableau: ['AH'], stock: '2S 3S 4S', preset: 'classic-draw3' });
    const s1 = apply(s0, { type: 'draw' });
    const s2 = apply(s1, { type: 'recycle' });
    const s3 = apply(s2, mv('t1', 'fH'));
    const u3 = undo(s3);
    expect(u3.ok && u3.value).toEqual(s2);
    const u2 = u3.ok ? undo(u3.value) : u3;
    expect(u2.ok && u2.value).toEqual(s1);
    const u1 = u2.ok ? undo(u2.value) : u2;
    expect(u1.ok && u1.value).toEqual(s0);
  });
  it('R14: nothing to undo at the start; undo refused when the mode turns it off', () => {
    const s = position({ stock: '2S' });
    const r = undo(s);
    expect(!r.ok && r.error.code).toBe('nothing-to-undo');
    const off = apply(position({ stock: '2S', options: { undo: false } }), { type: 'draw' });
    const r2 = undo(off);
    expect(!r2.ok && r2.error.code).toBe('undo-off');
  });
  it('R14: undo restores a score that the floor at 0 had clipped', () => {
    const s = position({ waste: '2S', score: 40, preset: 'classic-draw1' });
    const r = apply(s, { type: 'recycle' });
    expect(r.score).toBe(0);
    const u = undo(r);
    expect(u.ok && u.value.score).toBe(40);
  });
});

describe('R15 auto-move and auto-complete', () => {
  it('R15: auto-complete applies only once stock and waste are empty and all cards face up, and wins', () => {
    const s = position({ tableau: ['KC QH', 'KH QC', '', '', '', '', ''], foundations: [11, 13, 11, 13] });
    expect(canAutoComplete(s)).toBe(true);
    const line = autoCompleteMoves(s);
    expect(line.length).toBe(4);
    let x = s;
    for (const m of line) x = apply(x, m);
    expect(gameStatus(x)).toBe('won');
    expect(canAutoComplete(position({ tableau: ['3C | KC'], foundations: [0, 0, 0, 0] }))).toBe(false);
    expect(canAutoComplete(position({ tableau: ['KC'], stock: '2S' }))).toBe(false);
  });
  it('R15: a safe auto-move is a card at most 2 above both opposite-colour foundations', () => {
    // 3H: opposite foundations clubs 1, spades 1 → 3 <= 1+2: safe.
    expect(safeAutoMove(position({ tableau: ['3H'], foundations: [1, 0, 2, 1] }))).toEqual(mv('t1', 'fH'));
    // 4H: 4 > 1+2: not safe (a black 3 may still need it).
    expect(safeAutoMove(position({ tableau: ['4H'], foundations: [1, 0, 3, 1] }))).toBeNull();
    expect(safeAutoMove(position({ waste: 'AS' }))).toEqual(mv('waste', 'fS'));
  });
});

describe('S1 standard scoring', () => {
  const base = { preset: 'classic-draw1' as const };
  it('S1: waste→tableau +5, waste→foundation +10, tableau→foundation +10, foundation→tableau −15', () => {
    expect(apply(position({ ...base, tableau: ['9C'], waste: '8D' }), mv('waste', 't1')).score).toBe(5);
    expect(apply(position({ ...base, waste: 'AD' }), mv('waste', 'fD')).score).toBe(10);
    expect(apply(position({ ...base, tableau: ['AD'] }), mv('t1', 'fD')).score).toBe(10);
    expect(
      apply(position({ ...base, tableau: ['3C'], foundations: [0, 2, 0, 0], score: 20 }), mv('fD', 't1'))
        .score,
    ).toBe(5);
  });
  it('S1: draw 1 recycling costs 100; draw 3 the first three are free and later ones −20', () => {
    expect(apply(position({ ...base, waste: '2S', score: 150 }), { type: 'recycle' }).score).toBe(50);
    let d3 = position({ preset: 'classic-draw3', waste: '2S', score: 100 });
    for (let i = 0; i < 3; i++) d3 = apply(apply(d3, { type: 'recycle' }), { type: 'draw' });
    expect(d3.score).toBe(100);
    expect(apply(d3, { type: 'recycle' }).score).toBe(80); // the fourth recycle
    expect(d3.recycles).toBe(3);
  });
  it('S1: the score never falls below 0', () => {
    expect(
      apply(position({ ...base, tableau: ['3C'], foundations: [0, 2, 0, 0] }), mv('fD', 't1')).score,
    ).toBe(0);
  });
  it('S1: timed games lose 2 points every 10 s and a win of at least 30 s earns 700000/seconds', () => {
    const s = position({ ...base, score: 100, tableau: ['KS'], foundations: [13, 13, 13, 12] });
    expect(currentScore(s, 9_999)).toBe(100);
    expect(currentScore(s, 25_000)).toBe(96);
    expect(currentScore(s, 10_000_000)).toBe(0);
    const won = apply(s, mv('t1', 'fS'));
    expect(currentScore(won, 100_000)).toBe(110 - 20 + 7000);
    expect(currentScore(won, 29_999)).toBe(110 - 4);
    const untimed = position({ ...base, score: 100, options: { timed: false } });
    expect(currentScore(untimed, 100_000)).toBe(100);
  });
});

describe('S2 Vegas and S3 none', () => {
  it('S2: starts at −52, +5 a card to a foundation, −5 back; no time element', () => {
    const s = position({ preset: 'vegas-draw1', tableau: ['AH', '3C'], score: -52 });
    const r = apply(s, mv('t1', 'fH'));
    expect(r.score).toBe(-47);
    expect(currentScore(r, 1_000_000)).toBe(-47);
    const back = apply(
      position({ preset: 'vegas-draw1', tableau: ['3C'], foundations: [0, 0, 2, 0], score: -42 }),
      mv('fH', 't1'),
    );
    expect(back.score).toBe(-47);
  });
  it('S3: no scoring: always 0', () => {
    const s = position({ options: { scoring: 'none' }, tableau: ['AH'] });
    expect(currentScore(apply(s, mv('t1', 'fH')), 50_000)).toBe(0);
  });
});

describe('presets (docs/rules.md variant table)', () => {
  it('the seven presets match the table', () => {
    expect(PRESETS['classic-draw3']).toMatchObject({
      draw: 3,
      redeals: null,
      tableauMoves: 'anyRun',
      scoring: 'standard',
    });
    expect(PRESETS['classic-draw1']).toMatchObject({
      draw: 1,
      redeals: null,
      tableauMoves: 'anyRun',
      scoring: 'standard',
    });
    expect(PRESETS.bicycle).toMatchObject({
      draw: 3,
      redeals: null,
      tableauMoves: 'wholePile',
      scoring: 'standard',
    });
    expect(PRESETS['strict-draw3']).toMatchObject({
      draw: 3,
      redeals: 2,
      tableauMoves: 'anyRun',
      scoring: 'standard',
    });
    expect(PRESETS['vegas-draw1']).toMatchObject({
      draw: 1,
      redeals: 0,
      tableauMoves: 'anyRun',
      scoring: 'vegas',
    });
    expect(PRESETS['vegas-draw3']).toMatchObject({
      draw: 3,
      redeals: 2,
      tableauMoves: 'anyRun',
      scoring: 'vegas',
    });
  });
});

describe('bad input', () => {
  const s = position({ tableau: ['9H', '8C'], waste: '2S' });
  it('refuses unknown piles, bad counts, the same pile, moves to stock or waste, from the stock', () => {
    refused(s, { type: 'move', from: 'x1', to: 't1', count: 1 } as unknown as Move, 'bad-move');
    refused(s, mv('t2', 't1', 0), 'bad-move');
    refused(s, mv('t2', 't1', 1.5), 'bad-move');
    refused(s, mv('t1', 't1'), 'same-pile');
    refused(s, mv('t2', 'waste'), 'to-stock-or-waste');
    refused(s, mv('stock', 't1'), 'bad-move');
    refused(s, mv('t5', 't1'), 'empty-source');
    refused(s, mv('fC', 't1'), 'empty-source');
    refused(s, { type: 'shuffle' } as unknown as Move, 'bad-move');
  });
});
