/**
 * The hidden-knowledge score (docs/fair-play.md "Signals"). Pure.
 *
 * At a position where the player had two or more tableau piles whose every face-up card could move away
 * (each such move turns up a different face-down card: rules R6), the branches are told apart by the solver
 * with full knowledge of the face-down cards and the stock: a pile's branch is `won` when one of its moves
 * (at most two are tried) leads to a position the solver wins within its node budget, `lost` when none does
 * (by default a branch the solver could not win within its budget counts as lost: proofs of impossibility
 * are out of reach of a small budget; `unknownIsLost` = false asks for proofs). A position counts as a
 * `hiddenChoice` when the player took one of those branches, every branch got a verdict, at least one is won
 * and one lost, and the won ones are at most half of them; a `hiddenHit` when the player's branch is a won
 * one. The branches differ mostly by the cards under them, so a player without hidden knowledge hits about
 * half of the time (`expectedHits` sums won / branches per choice; measured 50–63 % for visible-information
 * players: the visible table tells a little); an oracle hits nearly always (measured 95–97 %). Draw choices
 * (whose value depends on the unseen stock order) are not scored: precision over recall. Positions are
 * examined in game order until the game's budget of solves is spent.
 */
import { type GameState, type Move, TABLEAU_PILES, applyMove, legalMoves } from '@klondike/rules';
import type { PlayedMove, PositionSolver } from './positions.js';

/** The hidden-knowledge score of one game. */
export interface HiddenKnowledge {
  readonly hiddenChoices: number;
  readonly hiddenHits: number;
  /** Hits expected without hidden knowledge: the sum over choices of won branches / branches (≤ choices / 2). */
  readonly expectedHits: number;
}

/** Most moves of one pile's branch that are solved (destinations tried in the rules' move order). */
const MOVES_PER_BRANCH = 2;

/** The moves from `s` that turn up a face-down card, by source pile (index 0 … 6). */
export function turnUpBranches(s: GameState): Map<number, Move[]> {
  const out = new Map<number, Move[]>();
  for (const m of legalMoves(s)) {
    if (m.type !== 'move') continue;
    const t = (TABLEAU_PILES as readonly string[]).indexOf(m.from);
    if (t < 0) continue;
    const pile = s.tableau[t];
    if (pile === undefined || pile.faceDown === 0 || m.count !== pile.cards.length - pile.faceDown) continue;
    const list = out.get(t) ?? [];
    list.push(m);
    out.set(t, list);
  }
  return out;
}

/** The verdict of one branch, or undefined when the budget ran out. */
function branchVerdict(
  s: GameState,
  moves: readonly Move[],
  solver: PositionSolver,
  spend: () => boolean,
  unknownIsLost: boolean,
): 'won' | 'lost' | 'unknown' | undefined {
  let lost = true;
  for (const m of moves.slice(0, MOVES_PER_BRANCH)) {
    const r = applyMove(s, m);
    if (!r.ok) continue;
    const cached = solver.known(r.value);
    if (cached === undefined && !spend()) return undefined;
    const v = cached ?? solver.verdict(r.value);
    if (v.verdict === 'won') return 'won';
    if (v.verdict === 'unknown' && !unknownIsLost) lost = false;
  }
  // A pile with more destinations than were tried is never proved lost.
  return lost && moves.length <= MOVES_PER_BRANCH ? 'lost' : 'unknown';
}

/** The hidden-knowledge score of `moves` (a game's played line), asking `solver` at most `maxSolves` times. */
export function hiddenKnowledge(
  moves: readonly PlayedMove[],
  solver: PositionSolver,
  maxSolves: number,
  unknownIsLost = true,
): HiddenKnowledge {
  let solves = 0;
  const spend = (): boolean => (solves < maxSolves ? (solves++, true) : false);
  let hiddenChoices = 0;
  let hiddenHits = 0;
  let expectedHits = 0;
  for (const p of moves) {
    if (solves >= maxSolves) break;
    if (p.auto || p.move.type !== 'move') continue;
    const branches = turnUpBranches(p.before);
    if (branches.size < 2) continue;
    const chosen = (TABLEAU_PILES as readonly string[]).indexOf(p.move.from);
    const mine = branches.get(chosen);
    if (mine === undefined || !mine.some((m) => m.type === 'move' && m.to === (p.move as { to: string }).to))
      continue;
    // A position the solver already proved lost has only lost branches: nothing to learn.
    if (solver.known(p.before)?.verdict === 'impossible') continue;
    const verdicts = new Map<number, 'won' | 'lost' | 'unknown'>();
    let complete = true;
    for (const [t, list] of branches) {
      const v = branchVerdict(p.before, list, solver, spend, unknownIsLost);
      if (v === undefined || v === 'unknown') {
        complete = false;
        break;
      }
      verdicts.set(t, v);
    }
    if (!complete) continue;
    const won = [...verdicts.values()].filter((v) => v === 'won').length;
    if (won === 0 || won === verdicts.size || won * 2 > verdicts.size) continue;
    hiddenChoices++;
    expectedHits += won / verdicts.size;
    if (verdicts.get(chosen) === 'won') hiddenHits++;
  }
  return { hiddenChoices, hiddenHits, expectedHits };
}
