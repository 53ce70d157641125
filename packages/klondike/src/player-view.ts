/**
 * THE view (docs/architecture.md): what a player may see of a state, and the cards they must not. The types
 * are view.ts. Pure.
 */
import { type Card, type CardCode, cardCode, makeCard } from './cards.js';
import { canAutoComplete, currentScore } from './auto.js';
import type { FoundationPileId } from './moves.js';
import type { GameState } from './state.js';
import { gameStatus } from './status.js';
import { isOver, redealsLeft } from './table.js';
import type { GameStatus, LastPassState, PlayerView, TableauView } from './view.js';

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
