/**
 * The rules engine's moves: new game, validate + apply, undo, resign, and the points of each move. Every
 * function is pure: it takes a state and returns a new one or a typed error (never throws for an illegal
 * move). Legal moves are legal-moves.ts, the status (R13) status.ts, score and auto-moves auto.ts, the view
 * player-view.ts. Rule ids refer to docs/rules.md.
 */
import { type Card, IS_RED, RANK, SUIT_INDEX, makeCard } from './cards.js';
import type { Deal } from './deal.js';
import { type Move, type MoveError, type PileMove, moveError } from './moves.js';
import type { GameOptions } from './options.js';
import { type Result, err, ok } from './result.js';
import type { GameState, History, TableauPile } from './state.js';
import { PILE_REFS, type PileRef, fitsFoundation, fitsTableau, isOver, redealsLeft } from './table.js';

export { isOver, isWon } from './table.js';

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
