/**
 * Cutting puzzles from one finished game (docs/puzzles.md "What a puzzle is", "Fairness", "Themes"). Pure:
 * no I/O, no clock; runs inside a background solver thread (solve/task.ts, task `puzzles`).
 *
 * The game's played line (review.ts `playedLine`: the moves that stand after every undo) gives positions
 * 0 … n. A position is a candidate when it is not won, has at most `maxUnseen` unseen cards (face-down and
 * stock: what the view does not show) and at least two legal moves:
 * - `only-move`: for EVERY arrangement of its unseen cards (k! of them), exactly one legal move leads to a
 *   position the solver wins and every other legal move to one the solver proves lost, and it is the same
 *   move in every arrangement; an `unknown` verdict (node budget) rejects the candidate;
 * - `clear-the-table`: the first position of the line with no unseen card at all whose waste is not empty
 *   (with an empty waste too, auto-completion would finish it: rules R15); the par is `solveMinimal`'s line
 *   (at least MIN_CLEAR_PAR moves), `proven` when shortest.
 * At most `perGame` puzzles a game, at most `maxSolves` solver calls a game; later positions are tried first
 * (they have the fewest unseen cards), a position already seen (the same cards everywhere) once.
 */
import {
  type Deal,
  type GameAction,
  type GameOptions,
  type GameState,
  type Move,
  RANK,
  TABLEAU_PILES,
  applyMove,
  isWon,
  legalMoves,
  sameMove,
} from '@klondike/rules';
import { type PuzzleTheme } from '@klondike/protocol';
import { solveMinimal } from '@klondike/solver';
import { playedLine } from '../review/review.js';
import { PositionSolver, positionKey } from '../signals/positions.js';
import { type StoredPosition, arrangements, storePosition, unseenCount } from './position.js';

/** Limits of one game's generation. */
export interface GenerationLimits {
  /** Most unseen cards of a candidate (k! arrangements are checked). */
  readonly maxUnseen: number;
  /** Most puzzles cut from one game. */
  readonly perGame: number;
  /** Most positions one solve may generate. */
  readonly solveNodes: number;
  /** Most solver calls for one game. */
  readonly maxSolves: number;
  /** Node budget of the shortest-line search of a `clear-the-table` candidate. */
  readonly minimalNodes: number;
}

/** Defaults of `GenerationLimits` (the PUZZLES_* settings' defaults). */
export const DEFAULT_GENERATION_LIMITS: GenerationLimits = {
  maxUnseen: 5,
  perGame: 3,
  solveNodes: 50_000,
  maxSolves: 4_000,
  minimalNodes: 500_000,
};

/** The shortest par of a `clear-the-table` puzzle (a shorter one is no puzzle). */
export const MIN_CLEAR_PAR = 3;
/** An answer or par of this many moves or more is `long`. */
export const LONG_ANSWER = 20;

/** A puzzle cut from a game, before it is stored. */
export interface PuzzleCandidate {
  readonly goal: 'only-move' | 'clear-the-table';
  /** Moves of the played line before the position. */
  readonly ply: number;
  readonly position: StoredPosition;
  /** The only move, or the shortest line found. */
  readonly solution: readonly Move[];
  /** 1 for `only-move`; the par for `clear-the-table`. */
  readonly par: number;
  readonly proven: boolean;
  readonly themes: readonly PuzzleTheme[];
  readonly unseen: number;
  /** Legal moves in the position. */
  readonly choices: number;
}

/** What one game's generation did (the benchmark's figures). */
export interface GenerationStats {
  /** Positions of the played line. */
  readonly positions: number;
  /** Candidates examined (positions that passed the cheap filters). */
  readonly candidates: number;
  /** Candidates that passed the fairness check. */
  readonly fair: number;
  /** Candidates examined by goal (`clear-the-table`: at most one a game). */
  readonly byGoal: Readonly<
    Record<PuzzleCandidate['goal'], { readonly candidates: number; readonly fair: number }>
  >;
  /** Only-move candidates rejected, by reason (OnlyMoveVerdict). */
  readonly rejected: Readonly<Record<string, number>>;
  /** Solver calls (cached answers not counted; a minimal search counts one). */
  readonly solves: number;
  /** Positions the solves generated. */
  readonly nodes: number;
}

/** The answer of a generation. */
export interface GenerationResult {
  readonly puzzles: readonly PuzzleCandidate[];
  readonly stats: GenerationStats;
}

/** Whether `m` moves a king-headed run (or a king) onto an empty tableau pile of `s`. */
function kingToEmpty(s: GameState, m: Move): boolean {
  if (m.type !== 'move') return false;
  const to = (TABLEAU_PILES as readonly string[]).indexOf(m.to);
  if (to < 0 || (s.tableau[to]?.cards.length ?? 1) !== 0) return false;
  const from = (TABLEAU_PILES as readonly string[]).indexOf(m.from);
  const head =
    m.from === 'waste'
      ? s.waste[s.waste.length - 1]
      : from >= 0
        ? s.tableau[from]?.cards[(s.tableau[from]?.cards.length ?? 0) - m.count]
        : undefined;
  return head !== undefined && RANK[head] === 13;
}

/** Whether `m` turns up a face-down card of `s` (rules R6). */
function uncovers(s: GameState, m: Move): boolean {
  if (m.type !== 'move') return false;
  const from = (TABLEAU_PILES as readonly string[]).indexOf(m.from);
  const pile = s.tableau[from];
  return pile !== undefined && pile.faceDown > 0 && m.count === pile.cards.length - pile.faceDown;
}

/**
 * The themes of an answer (docs/puzzles.md "Themes") played from `start`: `uncover`, `king-to-empty-column`
 * and `hold-back` when any of its moves is one; `stock-timing` for an only move that draws, recycles, takes
 * the last pass or plays from the waste, and for a line that recycles or takes the last pass; `foundation`
 * for an only move onto a foundation (every winning line ends there); `long` from LONG_ANSWER moves.
 */
export function themesOf(
  goal: PuzzleCandidate['goal'],
  start: GameState,
  answer: readonly Move[],
): PuzzleTheme[] {
  const themes = new Set<PuzzleTheme>([goal]);
  let s = start;
  for (const m of answer) {
    if (uncovers(s, m)) themes.add('uncover');
    if (kingToEmpty(s, m)) themes.add('king-to-empty-column');
    const toTableau = m.type === 'move' && m.to.startsWith('t');
    if (toTableau && legalMoves(s).some((l) => l.type === 'move' && l.to.startsWith('f')))
      themes.add('hold-back');
    if (goal === 'only-move') {
      if (m.type !== 'move' || m.from === 'waste') themes.add('stock-timing');
      if (m.type === 'move' && m.to.startsWith('f')) themes.add('foundation');
    } else if (m.type === 'recycle' || m.type === 'last-pass') themes.add('stock-timing');
    const r = applyMove(s, m);
    if (!r.ok) break;
    s = r.value;
  }
  if (answer.length >= LONG_ANSWER) themes.add('long');
  return [...themes];
}

/** The verdict of `only-move` on one position (see the module comment). */
export type OnlyMoveVerdict =
  | { readonly fair: true; readonly move: Move }
  | {
      readonly fair: false;
      readonly reason: 'two-winning' | 'none-winning' | 'unknown' | 'differs' | 'budget';
    };

/**
 * Checks `s` for an only move over every arrangement of its unseen cards, with `solver` (its cache shared by
 * the game's positions) and at most `budget()` more solves (`budget` returns false once spent).
 */
export function onlyMove(s: GameState, solver: PositionSolver, budget: () => boolean): OnlyMoveVerdict {
  let only: Move | undefined;
  for (const a of arrangements(s)) {
    let winning: Move | undefined;
    for (const m of legalMoves(a)) {
      const r = applyMove(a, m);
      if (!r.ok) continue;
      const after = r.value;
      if (!isWon(after) && solver.known(after) === undefined && !budget())
        return { fair: false, reason: 'budget' };
      const v = isWon(after) ? 'won' : solver.verdict(after).verdict;
      if (v === 'unknown') return { fair: false, reason: 'unknown' };
      if (v === 'won') {
        if (winning !== undefined) return { fair: false, reason: 'two-winning' };
        winning = m;
      }
    }
    if (winning === undefined) return { fair: false, reason: 'none-winning' };
    if (only === undefined) only = winning;
    else if (!sameMove(only, winning)) return { fair: false, reason: 'differs' };
  }
  return only === undefined ? { fair: false, reason: 'none-winning' } : { fair: true, move: only };
}

/** Cuts the puzzles of one game (see the module comment). Errors: null when its log does not replay. */
export function generatePuzzles(
  deal: Deal,
  options: GameOptions,
  actions: readonly GameAction[],
  limits: GenerationLimits = DEFAULT_GENERATION_LIMITS,
): GenerationResult | null {
  const line = playedLine(deal, options, actions);
  if (line === null) return null;
  const solver = new PositionSolver(limits.solveNodes);
  let minimalSolves = 0;
  let minimalNodes = 0;
  const budget = (): boolean => solver.solves + minimalSolves < limits.maxSolves;
  const puzzles: PuzzleCandidate[] = [];
  let candidates = 0;
  let clearCandidates = 0;
  const rejected: Record<string, number> = {};
  const seen = new Set<string>();

  // clear-the-table: the first position with every card known and a waste to play.
  const clearAt = line.states.findIndex((s) => !isWon(s) && unseenCount(s) === 0 && s.waste.length > 0);
  if (clearAt >= 0 && budget()) {
    const s = line.states[clearAt] as GameState;
    candidates++;
    clearCandidates++;
    seen.add(positionKey(s));
    const m = solveMinimal(s, s.options, {
      maxNodes: limits.minimalNodes,
      fallback: { maxNodes: limits.solveNodes, timeLimitMs: 60_000, shortenMs: 0 },
    });
    minimalSolves++;
    minimalNodes += m.nodes;
    if (m.verdict === 'won' && m.line !== undefined && m.line.length >= MIN_CLEAR_PAR)
      puzzles.push({
        goal: 'clear-the-table',
        ply: clearAt,
        position: storePosition(s),
        solution: m.line,
        par: m.line.length,
        proven: m.optimal,
        themes: themesOf('clear-the-table', s, m.line),
        unseen: 0,
        choices: legalMoves(s).length,
      });
  }

  // only-move: latest positions first.
  for (let ply = line.states.length - 1; ply >= 0 && puzzles.length < limits.perGame && budget(); ply--) {
    const s = line.states[ply] as GameState;
    if (isWon(s) || unseenCount(s) > limits.maxUnseen) continue;
    const moves = legalMoves(s);
    if (moves.length < 2) continue;
    const key = positionKey(s);
    if (seen.has(key)) continue;
    seen.add(key);
    candidates++;
    const v = onlyMove(s, solver, budget);
    if (!v.fair) {
      rejected[v.reason] = (rejected[v.reason] ?? 0) + 1;
      continue;
    }
    puzzles.push({
      goal: 'only-move',
      ply,
      position: storePosition(s),
      solution: [v.move],
      par: 1,
      proven: true,
      themes: themesOf('only-move', s, [v.move]),
      unseen: unseenCount(s),
      choices: moves.length,
    });
  }
  const clears = puzzles.filter((p) => p.goal === 'clear-the-table').length;
  return {
    puzzles: puzzles.slice(0, limits.perGame),
    stats: {
      positions: line.states.length,
      candidates,
      fair: puzzles.length,
      byGoal: {
        'clear-the-table': { candidates: clearCandidates, fair: clears },
        'only-move': { candidates: candidates - clearCandidates, fair: puzzles.length - clears },
      },
      rejected,
      solves: solver.solves + minimalSolves,
      nodes: solver.nodes + minimalNodes,
    },
  };
}
