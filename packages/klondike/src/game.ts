/**
 * The rules engine: new game, legal moves, validate + apply, undo, resign, status, score and the player view.
 * Every function is pure: it takes a state and returns a new one or a typed error (never throws for an
 * illegal move). Rule ids refer to docs/rules.md.
 */
import { type Card, type CardCode, IS_RED, RANK, SUIT_INDEX, cardCode, makeCard } from './cards.js';
import type { Deal } from './deal.js';
import {
  FOUNDATION_PILES,
  type FoundationPileId,
  type Move,
  type MoveError,
  type PileId,
  type PileMove,
  TABLEAU_PILES,
  moveError,
} from './moves.js';
import type { GameOptions } from './options.js';
import { type Result, err, ok } from './result.js';
import type { GameState, History, TableauPile } from './state.js';
import type { GameStatus, LastPassState, PlayerView, TableauView } from './view.js';

/** Where a pile name points inside the state. */
type PileRef =
  | { readonly kind: 'stock' }
  | { readonly kind: 'waste' }
  | { readonly kind: 'tableau'; readonly index: number }
  | { readonly kind: 'foundation'; readonly suit: number };

const PILE_REFS: Readonly<Record<PileId, PileRef>> = {
  stock: { kind: 'stock' },
  waste: { kind: 'waste' },
  t1: { kind: 'tableau', index: 0 },
  t2: { kind: 'tableau', index: 1 },
  t3: { kind: 'tableau', index: 2 },
  t4: { kind: 'tableau', index: 3 },
  t5: { kind: 'tableau', index: 4 },
  t6: { kind: 'tableau', index: 5 },
  t7: { kind: 'tableau', index: 6 },
  fC: { kind: 'foundation', suit: 0 },
  fD: { kind: 'foundation', suit: 1 },
  fH: { kind: 'foundation', suit: 2 },
  fS: { kind: 'foundation', suit: 3 },
};

/** Points of S1 (standard scoring), docs/rules.md S1. */
export const STANDARD_POINTS = {
  wasteToTableau: 5,
  wasteToFoundation: 10,
  tableauToFoundation: 10,
  turnUp: 5,
  foundationToTableau: -15,
  recycleDraw1: -100,
  recycleDraw3AfterThird: -20,
  freeRecyclesDraw3: 3,
  timePenalty: 2,
  timePenaltyEveryMs: 10_000,
  bonusNumerator: 700_000,
  bonusMinSeconds: 30,
} as const;

/** Points of S2 (Vegas scoring), docs/rules.md S2. */
export const VEGAS_POINTS = { start: -52, toFoundation: 5, fromFoundation: -5 } as const;

/** A step of a game's log: a move, an undo or a resignation. The server stores these in order. */
export type GameAction =
  { readonly type: 'move'; readonly move: Move } | { readonly type: 'undo' } | { readonly type: 'resign' };

/**
 * The start position of a deal (docs/rules.md R2): cards 1–28 cross-wise to the tableau, the top card of each pile
 * face up; cards 29–52 to the stock, card 29 on top. Score starts at 0 (S1, S3) or −52 (S2).
 * The deal must be 52 distinct cards (use `parseDeal` / `dealFromNumber`).
 */
export function newGame(deal: Deal, options: GameOptions): GameState {
  const piles: Card[][] = [[], [], [], [], [], [], []];
  let k = 0;
  for (let round = 0; round < 7; round++) {
    for (let p = round; p < 7; p++) (piles[p] as Card[]).push(deal[k++] as Card);
  }
  return {
    options,
    deal,
    tableau: piles.map((cards, p) => ({ cards, faceDown: p })),
    foundations: [0, 0, 0, 0],
    stock: deal.slice(28).reverse(),
    waste: [],
    recycles: 0,
    lastPass: false,
    score: options.scoring === 'vegas' ? VEGAS_POINTS.start : 0,
    moves: 0,
    resigned: false,
    history: null,
  };
}

/** True when all 52 cards are on the foundations (docs/rules.md R12). */
export function isWon(state: GameState): boolean {
  const f = state.foundations;
  return f[0] === 13 && f[1] === 13 && f[2] === 13 && f[3] === 13;
}

/** True when the game can take no more moves: won (R12) or resigned (R13). A blocked game can still move. */
export function isOver(state: GameState): boolean {
  return state.resigned || isWon(state);
}

/** Redeals still allowed (R11); none once the last pass (R16) is taken. */
function redealsLeft(state: GameState): number | null {
  if (state.lastPass) return 0;
  const limit = state.options.redeals;
  return limit === null ? null : Math.max(0, limit - state.recycles);
}

function fitsTableau(card: Card, pile: TableauPile): boolean {
  const n = pile.cards.length;
  if (n === 0) return RANK[card] === 13; // R7
  const top = pile.cards[n - 1] as Card;
  return RANK[card] === (RANK[top] as number) - 1 && IS_RED[card] !== IS_RED[top]; // R4
}

function fitsFoundation(card: Card, foundations: readonly number[]): boolean {
  return RANK[card] === (foundations[SUIT_INDEX[card] as number] as number) + 1; // R8
}

function clampStandard(state: GameState, score: number): number {
  return state.options.scoring === 'standard' ? Math.max(0, score) : score;
}

/** Builds a state with every field in one fixed order (V8 keeps one hidden class; faster than spreads). */
function withChanges(
  state: GameState,
  tableau: readonly TableauPile[],
  foundations: readonly number[],
  stock: readonly Card[],
  waste: readonly Card[],
  recycles: number,
  score: number,
  moves: number,
  history: History | null,
  lastPass: boolean = state.lastPass,
): GameState {
  return {
    options: state.options,
    deal: state.deal,
    tableau,
    foundations,
    stock,
    waste,
    recycles,
    lastPass,
    score,
    moves,
    resigned: state.resigned,
    history,
  };
}

/** The moves without fields, shared by every history node that records one (a client's copy is not kept). */
const PLAIN_MOVES = {
  draw: { type: 'draw' },
  recycle: { type: 'recycle' },
  'last-pass': { type: 'last-pass' },
} as const satisfies { readonly [T in Exclude<Move['type'], 'move'>]: Move & { type: T } };

/** The state's history with the undo record of `move` on top (docs/rules.md R14). */
function pushHistory(state: GameState, move: Move, turnedUp: boolean, drawn: number): History {
  return {
    move: move.type === 'move' ? move : PLAIN_MOVES[move.type],
    turnedUp,
    scoreBefore: state.score,
    drawn,
    previous: state.history,
    length: (state.history?.length ?? 0) + 1,
  };
}

function replacePile(tableau: readonly TableauPile[], index: number, pile: TableauPile): TableauPile[] {
  const out = tableau.slice();
  out[index] = pile;
  return out;
}

function draw(state: GameState, move: Move): Result<GameState, MoveError> {
  const n = state.stock.length;
  if (n === 0) {
    if (state.lastPass)
      return err(moveError('stock-empty', 'The last pass is over: no more cards can be turned (R16).'));
    return err(moveError('stock-empty'));
  }
  // R10: three, or all that remain; R16: one card at a time after the last pass.
  const k = Math.min(state.lastPass ? 1 : state.options.draw, n);
  const waste = state.waste.slice();
  for (let i = 1; i <= k; i++) waste.push(state.stock[n - i] as Card); // the last drawn lies on top
  return ok(
    withChanges(
      state,
      state.tableau,
      state.foundations,
      state.stock.slice(0, n - k),
      waste,
      state.recycles,
      state.score,
      state.moves + 1,
      pushHistory(state, move, false, k),
    ),
  );
}

/** S1 points of turning the waste over (a recycle, or the last pass that takes a recycle's place). */
function recyclePoints(state: GameState): number {
  if (state.options.scoring !== 'standard') return 0;
  if (state.options.draw === 1) return STANDARD_POINTS.recycleDraw1;
  return state.recycles + 1 > STANDARD_POINTS.freeRecyclesDraw3 ? STANDARD_POINTS.recycleDraw3AfterThird : 0;
}

function recycle(state: GameState, move: Move): Result<GameState, MoveError> {
  if (state.lastPass) return err(moveError('last-pass-taken')); // R16: no redeal after the last pass
  if (state.stock.length > 0) return err(moveError('stock-not-empty'));
  if (state.waste.length === 0) return err(moveError('waste-empty'));
  const left = redealsLeft(state);
  if (left !== null && left <= 0) return err(moveError('no-redeals-left'));
  const score = clampStandard(state, state.score + recyclePoints(state));
  // R11: no shuffle; the first card that went to the waste comes first.
  const stock = state.waste.slice().reverse();
  return ok(
    withChanges(
      state,
      state.tableau,
      state.foundations,
      stock,
      [],
      state.recycles + 1,
      score,
      state.moves + 1,
      pushHistory(state, move, false, 0),
    ),
  );
}

/**
 * R16: the last pass, taken in place of a redeal (stock empty, waste not empty, a redeal still allowed),
 * once. The waste turns over as in R11 and counts as a recycle (S1 scores it like one); afterwards every
 * draw turns one card and no redeal is possible.
 */
function lastPass(state: GameState, move: Move): Result<GameState, MoveError> {
  if (!state.options.finalSinglePass) return err(moveError('last-pass-off'));
  if (state.lastPass) return err(moveError('last-pass-taken'));
  if (state.stock.length > 0)
    return err(
      moveError(
        'stock-not-empty',
        'The last pass is taken in place of a redeal: empty the stock first (R16).',
      ),
    );
  if (state.waste.length === 0) return err(moveError('waste-empty'));
  const left = redealsLeft(state);
  if (left !== null && left <= 0) return err(moveError('no-redeals-left'));
  return ok(
    withChanges(
      state,
      state.tableau,
      state.foundations,
      state.waste.slice().reverse(),
      [],
      state.recycles + 1,
      clampStandard(state, state.score + recyclePoints(state)),
      state.moves + 1,
      pushHistory(state, move, false, 0),
      true,
    ),
  );
}

function isRun(cards: readonly Card[], from: number): boolean {
  for (let i = from + 1; i < cards.length; i++) {
    const below = cards[i - 1] as Card;
    const above = cards[i] as Card;
    if (RANK[above] !== (RANK[below] as number) - 1 || IS_RED[above] === IS_RED[below]) return false;
  }
  return true;
}

function movePile(state: GameState, move: PileMove): Result<GameState, MoveError> {
  const from = PILE_REFS[move.from];
  const to = PILE_REFS[move.to];
  const count = move.count;
  if (from === undefined || to === undefined || !Number.isInteger(count) || count < 1)
    return err(moveError('bad-move'));
  if (move.from === move.to) return err(moveError('same-pile'));
  if (from.kind === 'stock')
    return err(moveError('bad-move', 'Cards are not taken from the stock: draw instead (R10).'));
  if (to.kind === 'stock' || to.kind === 'waste') return err(moveError('to-stock-or-waste'));

  // The moving unit: its bottom card, and where it comes from.
  let card: Card;
  if (from.kind === 'waste') {
    if (state.waste.length === 0) return err(moveError('empty-source'));
    if (count !== 1) return err(moveError('count-from-single'));
    card = state.waste[state.waste.length - 1] as Card;
  } else if (from.kind === 'foundation') {
    const height = state.foundations[from.suit] as number;
    if (height === 0) return err(moveError('empty-source'));
    if (count !== 1) return err(moveError('count-from-single'));
    if (to.kind === 'foundation') return err(moveError('foundation-build'));
    if (!state.options.foundationToTableau) return err(moveError('foundation-to-tableau-off')); // R9
    card = makeCard(from.suit, height);
  } else {
    const pile = state.tableau[from.index] as TableauPile;
    const n = pile.cards.length;
    if (n === 0) return err(moveError('empty-source'));
    if (count > n) return err(moveError('empty-source', `Pile ${move.from} has only ${n} cards.`));
    if (count > n - pile.faceDown) return err(moveError('not-face-up'));
    if (to.kind === 'foundation' && count !== 1) return err(moveError('count-to-foundation'));
    if (!isRun(pile.cards, n - count)) return err(moveError('not-a-run'));
    if (to.kind === 'tableau' && state.options.tableauMoves === 'wholePile' && count !== n - pile.faceDown) {
      return err(moveError('whole-pile-only'));
    }
    card = pile.cards[n - count] as Card;
  }

  // The target accepts it?
  if (to.kind === 'foundation') {
    if (SUIT_INDEX[card] !== to.suit || !fitsFoundation(card, state.foundations))
      return err(moveError('foundation-build'));
  } else {
    const target = state.tableau[to.index] as TableauPile;
    if (!fitsTableau(card, target))
      return err(moveError(target.cards.length === 0 ? 'king-to-empty' : 'tableau-build'));
  }

  // Apply.
  let tableau: TableauPile[] | readonly TableauPile[] = state.tableau;
  let foundations = state.foundations;
  let waste = state.waste;
  let moving: readonly Card[];
  let turnedUp = false;
  if (from.kind === 'waste') {
    waste = state.waste.slice(0, -1);
    moving = [card];
  } else if (from.kind === 'foundation') {
    foundations = state.foundations.slice();
    (foundations as number[])[from.suit] = (foundations[from.suit] as number) - 1;
    moving = [card];
  } else {
    const pile = state.tableau[from.index] as TableauPile;
    const rest = pile.cards.slice(0, pile.cards.length - count);
    moving = pile.cards.slice(pile.cards.length - count);
    let faceDown = pile.faceDown;
    if (faceDown > 0 && faceDown === rest.length) {
      faceDown -= 1; // R6: turned up as part of the same move
      turnedUp = true;
    }
    tableau = replacePile(tableau, from.index, { cards: rest, faceDown });
  }
  if (to.kind === 'foundation') {
    if (foundations === state.foundations) foundations = state.foundations.slice();
    (foundations as number[])[to.suit] = (foundations[to.suit] as number) + 1;
  } else {
    const target = tableau[to.index] as TableauPile;
    tableau = replacePile(tableau, to.index, {
      cards: target.cards.concat(moving),
      faceDown: target.faceDown,
    });
  }

  const score = clampStandard(state, state.score + movePoints(state.options, from.kind, to.kind, turnedUp));
  return ok(
    withChanges(
      state,
      tableau,
      foundations,
      state.stock,
      waste,
      state.recycles,
      score,
      state.moves + 1,
      pushHistory(state, move, turnedUp, 0),
    ),
  );
}

/** Points a pile move earns under the game's scoring (docs/rules.md S1, S2; S3 scores nothing). */
function movePoints(
  options: GameOptions,
  from: PileRef['kind'],
  to: PileRef['kind'],
  turnedUp: boolean,
): number {
  if (options.scoring === 'vegas') {
    if (to === 'foundation') return VEGAS_POINTS.toFoundation;
    if (from === 'foundation') return VEGAS_POINTS.fromFoundation;
    return 0;
  }
  if (options.scoring === 'none') return 0;
  let points = turnedUp ? STANDARD_POINTS.turnUp : 0;
  if (from === 'waste' && to === 'tableau') points += STANDARD_POINTS.wasteToTableau;
  else if (from === 'waste' && to === 'foundation') points += STANDARD_POINTS.wasteToFoundation;
  else if (from === 'tableau' && to === 'foundation') points += STANDARD_POINTS.tableauToFoundation;
  else if (from === 'foundation' && to === 'tableau') points += STANDARD_POINTS.foundationToTableau;
  return points;
}

/**
 * Validates and applies one move (docs/rules.md R4–R11, R16, scoring S1/S2). Returns the new state, or a `MoveError`
 * naming the rule that refuses it; the given state is never changed. Errors: `game-over` once won or resigned,
 * plus the codes of `MOVE_ERROR_CODES`.
 */
export function applyMove(state: GameState, move: Move): Result<GameState, MoveError> {
  if (isOver(state)) return err(moveError('game-over'));
  switch (move.type) {
    case 'draw':
      return draw(state, move);
    case 'recycle':
      return recycle(state, move);
    case 'last-pass':
      return lastPass(state, move);
    case 'move':
      return movePile(state, move);
    default:
      return err(moveError('bad-move'));
  }
}

/** Validates a move without keeping the result: `null` when legal, else the error of `applyMove`. */
export function validateMove(state: GameState, move: Move): MoveError | null {
  const r = applyMove(state, move);
  return r.ok ? null : r.error;
}

/**
 * Reverts the last move whole, including an R6 turn-up and the points it earned (docs/rules.md R14).
 * Errors: `undo-off` (options.undo false), `game-over` (won or resigned), `nothing-to-undo`.
 */
export function undo(state: GameState): Result<GameState, MoveError> {
  if (!state.options.undo) return err(moveError('undo-off'));
  if (isOver(state)) return err(moveError('game-over'));
  const history = state.history;
  if (history === null) return err(moveError('nothing-to-undo'));
  const { move, turnedUp, scoreBefore, drawn } = history;
  const base = { ...state, score: scoreBefore, moves: state.moves - 1, history: history.previous };
  if (move.type === 'draw') {
    const w = state.waste.length;
    const stock = state.stock.slice();
    for (let i = 1; i <= drawn; i++) stock.push(state.waste[w - i] as Card);
    return ok({ ...base, stock, waste: state.waste.slice(0, w - drawn) });
  }
  if (move.type === 'recycle' || move.type === 'last-pass') {
    // The last pass is the only move that sets `lastPass`, and it happens once: undoing it clears the flag.
    const waste = state.stock.slice().reverse();
    return ok({ ...base, stock: [], waste, recycles: state.recycles - 1, lastPass: false });
  }
  const from = PILE_REFS[move.from];
  const to = PILE_REFS[move.to];
  // Take the unit off its target.
  let tableau: readonly TableauPile[] = state.tableau;
  let foundations = state.foundations;
  let moving: readonly Card[];
  if (to.kind === 'foundation') {
    const height = foundations[to.suit] as number;
    moving = [makeCard(to.suit, height)];
    foundations = foundations.slice();
    (foundations as number[])[to.suit] = height - 1;
  } else if (to.kind === 'tableau') {
    const target = tableau[to.index] as TableauPile;
    const n = target.cards.length;
    moving = target.cards.slice(n - move.count);
    tableau = replacePile(tableau, to.index, {
      cards: target.cards.slice(0, n - move.count),
      faceDown: target.faceDown,
    });
  } else {
    return err(moveError('bad-move'));
  }
  // Put it back where it came from.
  let waste = state.waste;
  if (from.kind === 'waste') {
    waste = state.waste.concat(moving);
  } else if (from.kind === 'foundation') {
    if (foundations === state.foundations) foundations = foundations.slice();
    (foundations as number[])[from.suit] = (foundations[from.suit] as number) + 1;
  } else if (from.kind === 'tableau') {
    const source = tableau[from.index] as TableauPile;
    tableau = replacePile(tableau, from.index, {
      cards: source.cards.concat(moving),
      faceDown: turnedUp ? source.faceDown + 1 : source.faceDown,
    });
  }
  return ok({ ...base, tableau, foundations, waste });
}

/** Ends the game by resignation (docs/rules.md R13). Errors: `game-over` when already won or resigned. */
export function resign(state: GameState): Result<GameState, MoveError> {
  if (isOver(state)) return err(moveError('game-over'));
  return ok({ ...state, resigned: true });
}

/** Applies one logged action (move, undo or resign); used to rebuild a game from its stored log. */
export function applyAction(state: GameState, action: GameAction): Result<GameState, MoveError> {
  switch (action.type) {
    case 'move':
      return applyMove(state, action.move);
    case 'undo':
      return undo(state);
    case 'resign':
      return resign(state);
  }
}

/** Rebuilds a game from its deal, options and log. Errors: the first action that does not apply, with its index. */
export function replay(
  deal: Deal,
  options: GameOptions,
  actions: readonly GameAction[],
): Result<GameState, MoveError & { readonly index: number }> {
  let state = newGame(deal, options);
  for (let i = 0; i < actions.length; i++) {
    const r = applyAction(state, actions[i] as GameAction);
    if (!r.ok) return err({ ...r.error, index: i });
    state = r.value;
  }
  return ok(state);
}

// Scratch space for legalMoves (single-threaded and not re-entrant, so sharing is safe).
const WANT_RANK = new Int8Array(7);
const WANT_NOT_RED = new Int8Array(7);

/** Shared, frozen move objects (moves are immutable), so move generation allocates nothing per move. */
const DRAW: Move = Object.freeze({ type: 'draw' });
const RECYCLE: Move = Object.freeze({ type: 'recycle' });
const LAST_PASS: Move = Object.freeze({ type: 'last-pass' });
/** The moves on the stock's side of the table (R10, R11, R16). */
const STOCK_MOVES: readonly Move[] = [DRAW, RECYCLE, LAST_PASS];
const TABLEAU_TO_TABLEAU: readonly (readonly (readonly Move[])[])[] = TABLEAU_PILES.map((from) =>
  TABLEAU_PILES.map((to) =>
    Array.from({ length: 14 }, (_, count) => Object.freeze({ type: 'move', from, to, count }) as Move),
  ),
);
const TABLEAU_TO_FOUNDATION: readonly (readonly Move[])[] = TABLEAU_PILES.map((from) =>
  FOUNDATION_PILES.map((to) => Object.freeze({ type: 'move', from, to, count: 1 }) as Move),
);
const WASTE_TO_FOUNDATION: readonly Move[] = FOUNDATION_PILES.map(
  (to) => Object.freeze({ type: 'move', from: 'waste', to, count: 1 }) as Move,
);
const WASTE_TO_TABLEAU: readonly Move[] = TABLEAU_PILES.map(
  (to) => Object.freeze({ type: 'move', from: 'waste', to, count: 1 }) as Move,
);
const FOUNDATION_TO_TABLEAU: readonly (readonly Move[])[] = FOUNDATION_PILES.map((from) =>
  TABLEAU_PILES.map((to) => Object.freeze({ type: 'move', from, to, count: 1 }) as Move),
);

/**
 * Every legal move from a state, in a fixed order: foundation moves first (tableau, then waste), then
 * tableau moves, waste to tableau, foundation to tableau (R9), draw, recycle, last pass (R16). Empty once
 * the game is over.
 * Every move returned applies with `applyMove`.
 */
export function legalMoves(state: GameState): Move[] {
  const out: Move[] = [];
  if (isOver(state)) return out;
  const { tableau, foundations, options } = state;
  // Tableau tops to foundations (R8).
  for (let i = 0; i < 7; i++) {
    const cards = (tableau[i] as TableauPile).cards;
    if (cards.length === 0) continue;
    const top = cards[cards.length - 1] as Card;
    if (fitsFoundation(top, foundations)) {
      out.push((TABLEAU_TO_FOUNDATION[i] as Move[])[SUIT_INDEX[top] as number] as Move);
    }
  }
  const w = state.waste.length;
  const wasteTop = w > 0 ? (state.waste[w - 1] as Card) : -1;
  if (wasteTop >= 0 && fitsFoundation(wasteTop, foundations)) {
    out.push(WASTE_TO_FOUNDATION[SUIT_INDEX[wasteTop] as number] as Move);
  }
  // Tableau to tableau (R4, R5, R7). The face-up cards of a pile always form one run.
  const wholePile = options.tableauMoves === 'wholePile';
  // Per target pile: the rank its next card must have (13 when empty) and the colour it must not have.
  const want = WANT_RANK;
  const wantRed = WANT_NOT_RED;
  for (let j = 0; j < 7; j++) {
    const cards = (tableau[j] as TableauPile).cards;
    const m = cards.length;
    if (m === 0) {
      want[j] = 13;
      wantRed[j] = 2; // any colour
    } else {
      const top = cards[m - 1] as Card;
      want[j] = (RANK[top] as number) - 1;
      wantRed[j] = IS_RED[top] as number;
    }
  }
  for (let i = 0; i < 7; i++) {
    const src = tableau[i] as TableauPile;
    const cards = src.cards;
    const n = cards.length;
    if (n === 0) continue;
    const topRank = RANK[cards[n - 1] as Card] as number;
    const faceUp = n - src.faceDown;
    const row = TABLEAU_TO_TABLEAU[i] as Move[][];
    for (let j = 0; j < 7; j++) {
      if (j === i) continue;
      const count = (want[j] as number) - topRank + 1; // cards from the wanted card up to the top
      if (count < 1 || count > faceUp) continue;
      if (wholePile && count !== faceUp) continue;
      if (IS_RED[cards[n - count] as Card] === wantRed[j]) continue;
      out.push((row[j] as Move[])[count] as Move);
    }
  }
  // Waste to tableau.
  if (wasteTop >= 0) {
    for (let j = 0; j < 7; j++) {
      if (fitsTableau(wasteTop, tableau[j] as TableauPile)) out.push(WASTE_TO_TABLEAU[j] as Move);
    }
  }
  // Foundation to tableau (R9).
  if (options.foundationToTableau) {
    for (let s = 0; s < 4; s++) {
      const h = foundations[s] as number;
      if (h === 0) continue;
      const card = makeCard(s, h);
      for (let j = 0; j < 7; j++) {
        if (fitsTableau(card, tableau[j] as TableauPile))
          out.push((FOUNDATION_TO_TABLEAU[s] as Move[])[j] as Move);
      }
    }
  }
  if (state.stock.length > 0) out.push(DRAW);
  else if (w > 0) {
    const left = redealsLeft(state); // 0 once the last pass is taken
    if (left === null || left > 0) {
      out.push(RECYCLE);
      if (options.finalSinglePass) out.push(LAST_PASS);
    }
  }
  return out;
}

// ---------- R13: blocked ----------

interface Measures {
  readonly foundation: number;
  readonly faceDown: number;
  readonly stockAndWaste: number;
  readonly empty: number;
}

function measures(state: GameState): Measures {
  let faceDown = 0;
  let empty = 0;
  for (const p of state.tableau) {
    faceDown += p.faceDown;
    if (p.cards.length === 0) empty++;
  }
  const f = state.foundations;
  return {
    foundation: (f[0] as number) + (f[1] as number) + (f[2] as number) + (f[3] as number),
    faceDown,
    stockAndWaste: state.stock.length + state.waste.length,
    empty,
  };
}

function progressed(m: Measures, start: Measures): boolean {
  return (
    m.foundation > start.foundation ||
    m.faceDown < start.faceDown ||
    m.stockAndWaste < start.stockAndWaste ||
    m.empty > start.empty
  );
}

/** positionKey's code units: a card (0…51) and a count (0…13) each as one character, and a separator. */
const KEY_CARD = 0x40;
const KEY_COUNT = 0x30;
const KEY_SEPARATOR = 0x7c; // '|'

/**
 * A text key of the position alone (tableau with face-down counts, foundations, stock and waste in order,
 * the redeals used when they are limited, the last pass taken — R16): two states with the same key have the
 * same legal moves and the same future, whatever moves led to them. Holds hidden cards: server-side only.
 * One character per card and per count (~70 in all), written in one go: the R13 search keys every position
 * it reaches, up to BLOCKED_SEARCH_LIMIT of them in one call.
 */
export function positionKey(state: GameState): string {
  const units: number[] = [];
  for (const p of state.tableau) {
    units.push(KEY_COUNT + p.faceDown);
    for (const c of p.cards) units.push(KEY_CARD + c);
    units.push(KEY_SEPARATOR);
  }
  for (const h of state.foundations) units.push(KEY_COUNT + h);
  units.push(KEY_SEPARATOR);
  for (const c of state.stock) units.push(KEY_CARD + c);
  units.push(KEY_SEPARATOR);
  for (const c of state.waste) units.push(KEY_CARD + c);
  let key = String.fromCharCode(...units);
  if (state.options.redeals !== null) key += `|${state.recycles}`;
  if (state.options.finalSinglePass) key += state.lastPass ? '|L' : '|-';
  return key;
}

/**
 * Whether `move` (legal in `state`) makes R13 progress, judged from the move alone when that is certain:
 * a card to a foundation (the foundations grow), a card off the waste (stock and waste shrink), or every
 * face-up card of a tableau pile that has face-down cards under them (R6 turns one up). False means
 * "not known without playing it", not "no progress".
 */
export function progressesAtOnce(state: GameState, move: Move): boolean {
  if (move.type !== 'move') return false;
  if (move.from === 'waste') return true;
  if ((FOUNDATION_PILES as readonly string[]).includes(move.to)) return true;
  const i = (TABLEAU_PILES as readonly string[]).indexOf(move.from);
  if (i < 0) return false;
  const pile = state.tableau[i] as TableauPile;
  return pile.faceDown > 0 && move.count === pile.cards.length - pile.faceDown;
}

/** Most positions the R13 search visits before it gives up and says "not blocked". */
export const BLOCKED_SEARCH_LIMIT = 4000;

/**
 * docs/rules.md R13: true when no sequence of moves can make progress — no card can reach a foundation, no
 * face-down card can be turned up, no tableau pile can be emptied and no stock or waste card can be played,
 * however often the stock is drawn or redealt. The positions reachable by the moves that make no progress
 * (tableau shuffles, foundation to tableau and back, draws, redeals and, under R16, the last pass, after which
 * draws turn one card: a card a draw-3 pass skips may be reached that way) are searched; when there are more
 * than `BLOCKED_SEARCH_LIMIT` of them the answer is false, so "blocked" is never said wrongly. False once won
 * or resigned.
 *
 * The search takes the two sides of the table apart. The stock's moves and the tableau's never change
 * each other's legality, and neither changes the other's cards. So the reachable positions are every
 * stock-and-waste position the draws, redeals and last pass reach, times every tableau-and-foundation
 * position the tableau's moves reach. The stock's side is walked once (`stockSide`: at most two passes and
 * the last pass). The tableau's side is searched on its own. At each of its positions the search asks
 * whether a card the stock can bring to the waste's top fits there. The answer is the same as that of a
 * search of every combined position, the limit included: the product of the two counts is their number.
 * It visits fewer positions by the stock side's count: 25 in draw 1 with 24 cards in the stock and waste.
 */
export function isBlocked(state: GameState): boolean {
  if (isOver(state)) return false;
  // Cheapest first: a legal move that visibly makes progress settles it without playing any move.
  const first = legalMoves(state);
  for (const move of first) if (progressesAtOnce(state, move)) return false;
  const stock = stockSide(state);
  if (stock.positions > BLOCKED_SEARCH_LIMIT) return false;
  const start = measures(state);
  const seen = new Set<string>([positionKey(state)]);
  const queue: GameState[] = [state];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as GameState;
    // Progress from the waste: a card some draw turns up fits this tableau or these foundations.
    for (const card of stock.tops) {
      if (fitsFoundation(card, current.foundations)) return false;
      for (const pile of current.tableau) if (fitsTableau(card, pile)) return false;
    }
    for (const move of head === 0 ? first : legalMoves(current)) {
      // The tableau's side only: the stock's moves are stockSide's, and a card off the waste is progress.
      if (move.type !== 'move' || move.from === 'waste') continue;
      const r = applyMove(current, move);
      if (!r.ok) continue;
      if (progressed(measures(r.value), start)) return false;
      const key = positionKey(r.value);
      if (seen.has(key)) continue;
      if ((seen.size + 1) * stock.positions > BLOCKED_SEARCH_LIMIT) return false;
      seen.add(key);
      queue.push(r.value);
    }
  }
  return true;
}

/**
 * The stock's side of the R13 search from `state`: how many stock-and-waste positions the draws, redeals and
 * the last pass reach (R10, R11, R16), counted as `positionKey` counts them with the tableau left as it is,
 * and the cards that lie on the waste's top in one of them.
 */
function stockSide(state: GameState): { positions: number; tops: readonly Card[] } {
  const seen = new Set<number>([stockKey(state)]);
  const tops = new Set<Card>();
  const queue: GameState[] = [state];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as GameState;
    const w = current.waste.length;
    if (w > 0) tops.add(current.waste[w - 1] as Card);
    for (const move of STOCK_MOVES) {
      const r = applyMove(current, move);
      if (!r.ok) continue;
      const key = stockKey(r.value);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(r.value);
    }
  }
  return { positions: seen.size, tops: [...tops] };
}

/**
 * The stock-and-waste part of `positionKey` among positions the stock's moves reach from one another: the
 * stock's size, the redeals used when they are limited, and the last pass (R16). The stock and the waste
 * together always hold the same cards in the same order (a pass turns them over, unshuffled, R11), so the
 * stock's size says where the split between them lies.
 */
function stockKey(state: GameState): number {
  const { redeals, finalSinglePass } = state.options;
  const recycles = redeals === null ? 0 : state.recycles;
  return state.stock.length + 64 * (recycles * 2 + (finalSinglePass && state.lastPass ? 1 : 0));
}

/** The status of a game: `resigned`, `won` (R12), `blocked` (R13) or `playing`. */
export function gameStatus(state: GameState): GameStatus {
  if (state.resigned) return 'resigned';
  if (isWon(state)) return 'won';
  if (isBlocked(state)) return 'blocked';
  return 'playing';
}

/**
 * `gameStatus(after)`, where `after` is `before` with `move` applied and `beforeStatus` is
 * `gameStatus(before)`. It skips the R13 search (docs/rules.md R13) when the move cannot have changed the
 * answer, and always returns the same value as `gameStatus(after)`.
 *
 * Why the answer can be carried over. R13 asks whether any position reachable by moves that make no
 * progress has a move that does. Progress is measured against the start position: foundation cards, face-down
 * cards, stock and waste size, and empty piles. Some moves leave all four measures as they were and can be
 * undone by such moves again; such a move is reversible:
 * - a draw or a redeal while redeals are unlimited (R11) and the last pass (R16) has not been taken. Drawing
 *   on through the stock and redealing comes back to the same stock and waste. One exception: in draw 3,
 *   a position whose waste size is not a multiple of 3 (a waste card was played during this pass) is never
 *   reached again, because every later pass turns the cards three at a time from the start;
 * - a tableau-to-tableau move that turns up no card and leaves the number of empty piles as it was. That is
 *   either a run lifted off a face-up card onto another pile's top, which can go back onto that card (the
 *   face-up cards of a pile are always one run, R4), or a King's whole pile with nothing under it moved
 *   onto an empty pile, which can move back the same way. Under `tableauMoves: wholePile` only the second
 *   kind exists.
 *
 * For a reversible move, `before` and `after` have the same measures and can each reach the other without
 * progress. So they reach the same set of positions, and the search gives the same answer from either. That
 * holds even at `BLOCKED_SEARCH_LIMIT`: "blocked" needs the whole set explored, and the set is the same.
 * Every other move (to or from a foundation, from the waste, a turn-up, an undo, the last pass, a move
 * under a redeal limit) runs the search. Nothing is carried over from a game that is `won` or `resigned`.
 *
 * This matters when a player is stuck and cycles the stock: every draw is a new position, and a search can
 * visit up to BLOCKED_SEARCH_LIMIT positions, tens of ms, on the server's one thread.
 */
export function statusAfterMove(
  before: GameState,
  beforeStatus: GameStatus,
  move: Move,
  after: GameState,
): GameStatus {
  if (
    (beforeStatus === 'playing' || beforeStatus === 'blocked') &&
    reversibleWithoutProgress(before, move, after)
  )
    return beforeStatus;
  return gameStatus(after);
}

/** Whether `move` took `before` to `after` without changing R13's measures, and can be undone by such moves. */
function reversibleWithoutProgress(before: GameState, move: Move, after: GameState): boolean {
  switch (move.type) {
    case 'draw':
      return redealsLeft(before) === null && before.waste.length % before.options.draw === 0;
    case 'recycle':
      return redealsLeft(before) === null;
    case 'last-pass':
      return false;
    case 'move': {
      if (PILE_REFS[move.from]?.kind !== 'tableau' || PILE_REFS[move.to]?.kind !== 'tableau') return false;
      const a = measures(before);
      const b = measures(after);
      return a.faceDown === b.faceDown && a.empty === b.empty;
    }
  }
}

// ---------- Score ----------

/**
 * The score in points for a game time of `elapsedMs` (the server's clock, first move to now or to the win).
 * S1 standard: move points, minus 2 every 10 s when timed, never below 0, plus 700000 / seconds on a win
 * that took at least 30 s (timed only). S2 Vegas: move points (from −52). S3 none: 0.
 */
export function currentScore(state: GameState, elapsedMs: number): number {
  const { scoring, timed } = state.options;
  if (scoring === 'none') return 0;
  if (scoring === 'vegas' || !timed) return state.score;
  const ms = Math.max(0, Math.floor(elapsedMs));
  let score = Math.max(
    0,
    state.score - STANDARD_POINTS.timePenalty * Math.floor(ms / STANDARD_POINTS.timePenaltyEveryMs),
  );
  const seconds = Math.floor(ms / 1000);
  if (isWon(state) && seconds >= STANDARD_POINTS.bonusMinSeconds)
    score += Math.floor(STANDARD_POINTS.bonusNumerator / seconds);
  return score;
}

// ---------- R15: auto-move and auto-complete ----------

/** docs/rules.md R15: auto-complete applies once stock and waste are empty and every tableau card is face up. */
export function canAutoComplete(state: GameState): boolean {
  if (isOver(state) || state.stock.length > 0 || state.waste.length > 0) return false;
  return state.tableau.every((p) => p.faceDown === 0);
}

/**
 * The foundation moves that finish a game where `canAutoComplete` holds (docs/rules.md R15), in order; empty
 * otherwise. With every card face up in descending runs the lowest remaining card is always a pile's top,
 * so this always reaches the win.
 */
export function autoCompleteMoves(state: GameState): Move[] {
  if (!canAutoComplete(state)) return [];
  const moves: Move[] = [];
  let current = state;
  for (;;) {
    const next = legalMoves(current).find(
      (m) => m.type === 'move' && m.to.startsWith('f') && m.from.startsWith('t'),
    );
    if (next === undefined) break;
    const r = applyMove(current, next);
    if (!r.ok) break;
    moves.push(next);
    current = r.value;
  }
  return moves;
}

/**
 * docs/rules.md R15: a foundation move that can never be needed on the tableau — a card whose rank is at most 2
 * more than both foundations of the opposite colour (Aces and Twos always). Returns the first such move from
 * a tableau top or the waste top, or null.
 */
export function safeAutoMove(state: GameState): Move | null {
  if (isOver(state)) return null;
  const f = state.foundations;
  const safe = (card: Card): boolean => {
    if (!fitsFoundation(card, f)) return false;
    const red = IS_RED[card] === 1;
    const opp = red ? Math.min(f[0] as number, f[3] as number) : Math.min(f[1] as number, f[2] as number);
    return (RANK[card] as number) <= opp + 2;
  };
  for (let i = 0; i < 7; i++) {
    const cards = (state.tableau[i] as TableauPile).cards;
    const top = cards[cards.length - 1];
    if (top !== undefined && safe(top))
      return {
        type: 'move',
        from: TABLEAU_PILES[i] as PileId,
        to: FOUNDATION_PILES[SUIT_INDEX[top] as number] as PileId,
        count: 1,
      };
  }
  const w = state.waste[state.waste.length - 1];
  if (w !== undefined && safe(w))
    return { type: 'move', from: 'waste', to: FOUNDATION_PILES[SUIT_INDEX[w] as number] as PileId, count: 1 };
  return null;
}

// ---------- View ----------

function foundationTop(state: GameState, suit: number): CardCode | null {
  const h = state.foundations[suit] as number;
  return h === 0 ? null : cardCode(makeCard(suit, h));
}

/** R16 as the player sees it: whether the last pass can still be taken (now or later), or was taken. */
function lastPassState(state: GameState): LastPassState {
  if (state.lastPass) return 'taken';
  if (!state.options.finalSinglePass) return 'none';
  const left = redealsLeft(state);
  return left === null || left > 0 ? 'available' : 'none';
}

/**
 * THE view: everything a player may see of `state` at game time `elapsedMs` (ms, the server's clock).
 * Face-down cards appear only as a count and the stock only as a count; the result holds no engine state.
 * `status` is `gameStatus(state)` of this very state when the caller has it already (the R13 search behind
 * it is not cheap, docs/rules.md R13); it is computed when omitted.
 */
export function playerView(
  state: GameState,
  elapsedMs: number,
  status: GameStatus = gameStatus(state),
): PlayerView {
  const tableau: TableauView[] = state.tableau.map((p) => ({
    faceDown: p.faceDown,
    faceUp: p.cards.slice(p.faceDown).map(cardCode),
  }));
  const foundations: Record<FoundationPileId, CardCode | null> = {
    fC: foundationTop(state, 0),
    fD: foundationTop(state, 1),
    fH: foundationTop(state, 2),
    fS: foundationTop(state, 3),
  };
  return {
    options: { ...state.options },
    tableau,
    foundations,
    stock: { count: state.stock.length },
    waste: state.waste.map(cardCode),
    status,
    score: currentScore(state, elapsedMs),
    moves: state.moves,
    recycles: state.recycles,
    redealsLeft: redealsLeft(state),
    lastPass: lastPassState(state),
    canUndo: state.options.undo && state.history !== null && !isOver(state),
    canAutoComplete: canAutoComplete(state),
    elapsedMs: Math.max(0, Math.floor(elapsedMs)),
  };
}

/** Codes of every card a player must not see: face-down tableau cards and the stock (for tests and audits). */
export function hiddenCards(state: GameState): CardCode[] {
  const out: CardCode[] = [];
  for (const p of state.tableau) for (let i = 0; i < p.faceDown; i++) out.push(cardCode(p.cards[i] as Card));
  for (const c of state.stock) out.push(cardCode(c));
  return out;
}
