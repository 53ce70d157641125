/**
 * The review's search (features/review/review.ts, docs/review.md): the point of no return found by a binary
 * search over the played line equals the one found by asking the solver at every ply, on real deals lost by a
 * random player; an unknown verdict is never guessed.
 */
import {
  type GameAction,
  type GameState,
  type Move,
  applyMove,
  dealFromNumber,
  legalMoves,
  newGame,
  resolveOptions,
} from '@klondike/rules';
import { solve } from '@klondike/solver';
import { describe, expect, it } from 'vitest';
import { type Verdict, accuracyOf, playedLine, searchLine } from '../../../src/features/review/review.js';
import { prng } from '../../support/helpers.js';

// One pass through the stock (R11 with no redeal): a random player easily loses a winnable deal.
const options = resolveOptions('vegas-draw1');

/** The solver's verdict on a position, in this thread (the server runs it on a worker). */
function verdict(state: GameState): Verdict {
  // Node-limited, so that a loaded machine changes no verdict; a position beyond it is unknown.
  const r = solve(state, state.options, { timeLimitMs: 10_000, maxNodes: 200_000 });
  return r.line !== undefined ? { verdict: r.verdict, line: r.line } : { verdict: r.verdict };
}

/** A seeded random player's line on deal `n`: up to `plies` random legal moves (fewer when it is stuck). */
function randomGame(n: number, plies: number): GameAction[] {
  const deal = dealFromNumber(n);
  if (!deal.ok) throw new Error('deal');
  const random = prng(n);
  let state = newGame(deal.value, options);
  const actions: GameAction[] = [];
  for (let i = 0; i < plies; i++) {
    const moves = legalMoves(state);
    if (moves.length === 0) break;
    // Half the time it turns the stock when it can: with one pass through it, that soon loses a winnable deal.
    const draw = moves.find((m) => m.type === 'draw');
    const move =
      draw !== undefined && random() < 0.5 ? draw : (moves[Math.floor(random() * moves.length)] as Move);
    const next = applyMove(state, move);
    if (!next.ok) throw new Error('legal move refused');
    state = next.value;
    actions.push({ type: 'move', move });
  }
  return actions;
}

describe('the point of no return', () => {
  it('by binary search equals the first lost ply found by a verdict at every ply, on real lost deals', async () => {
    let compared = 0;
    for (let n = 1; n <= 40 && compared < 3; n++) {
      const deal = dealFromNumber(n);
      if (!deal.ok) continue;
      const line = playedLine(deal.value, options, randomGame(n, 30));
      if (line === null) throw new Error('the random line does not replay');
      // Only deals won from the start and lost by the end say anything about the search: two verdicts first.
      const ends = [
        verdict(line.states[0] as GameState),
        verdict(line.states[line.moves.length] as GameState),
      ];
      if (ends[0]?.verdict !== 'won' || ends[1]?.verdict !== 'impossible') continue;
      const every = line.states.map(verdict);
      if (every.some((v) => v.verdict === 'unknown')) continue;
      const firstLost = every.findIndex((v) => v.verdict === 'impossible');
      expect(firstLost).toBeGreaterThan(0);
      // Winnability only falls along a line (the search's premise), checked on every ply.
      expect(every.slice(firstLost).every((v) => v.verdict === 'impossible')).toBe(true);
      // The search asks the same verdicts (a time-limited solver could answer differently a second time).
      const byState = new Map(line.states.map((state, i) => [state, every[i] as Verdict]));
      const search = await searchLine(line, false, (state) => Promise.resolve(byState.get(state) as Verdict));
      expect(search.pointOfNoReturn).toBe(firstLost);
      expect(search.lastWinnable?.ply).toBe(firstLost - 1);
      expect(search.decided).toBe(true);
      expect(search.winnableAtStart).toBe(true);
      // log2 of the line and the two ends, not one verdict a ply.
      expect(search.solverCalls).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(line.moves.length + 1)));
      expect(search.winnable).toEqual(every.slice(1).map((v) => v.verdict === 'won'));
      // The winning continuation wins from the last winnable position.
      let state = line.states[firstLost - 1] as GameState;
      for (const move of search.lastWinnable?.line ?? []) {
        const next = applyMove(state, move);
        expect(next.ok).toBe(true);
        if (next.ok) state = next.value;
      }
      expect(state.foundations.every((f) => f === 13)).toBe(true);
      const accuracy = accuracyOf(search, false, line.moves.length);
      expect(accuracy).not.toBeNull();
      expect(accuracy).toBeLessThan(100);
      compared++;
    }
    expect(compared).toBe(3);
  }, 180_000);

  it('an unknown verdict on the way is stated as undecided, never guessed', async () => {
    const deal = dealFromNumber(3);
    if (!deal.ok) throw new Error('deal');
    const line = playedLine(deal.value, options, randomGame(3, 30));
    if (line === null) throw new Error('replay');
    const n = line.moves.length;
    // Start winnable, end lost, everything between unknown.
    const search = await searchLine(line, false, (s) =>
      Promise.resolve<Verdict>(
        s === line.states[0]
          ? { verdict: 'won', line: [] }
          : s === line.states[n]
            ? { verdict: 'impossible' }
            : { verdict: 'unknown' },
      ),
    );
    expect(search.decided).toBe(false);
    expect(search.pointOfNoReturn).toBeNull();
    expect(search.winnable.slice(0, n - 1).every((w) => w === null)).toBe(true);
    expect(search.winnable[n - 1]).toBe(false);
    expect(accuracyOf(search, false, n)).toBeNull();
  });

  it('a won game needs one verdict, and scores 100 × par / moves', async () => {
    // The first of deals 1… that the solver wins from the start.
    let n = 1;
    let deal = dealFromNumber(n);
    let start: Verdict = { verdict: 'unknown' };
    for (; n <= 50; n++) {
      deal = dealFromNumber(n);
      if (!deal.ok) continue;
      start = verdict(newGame(deal.value, options));
      if (start.verdict === 'won') break;
    }
    if (!deal.ok || start.verdict !== 'won' || start.line === undefined)
      throw new Error('no winnable deal found');
    const padded: GameAction[] = start.line.map((move) => ({ type: 'move', move }));
    // An undone move is not part of the played line.
    padded.splice(0, 0, { type: 'move', move: { type: 'draw' } }, { type: 'undo' });
    const line = playedLine(deal.value, options, padded);
    expect(line?.moves.length).toBe(start.line.length);
    if (line === null) return;
    const search = await searchLine(line, true, (s) => Promise.resolve(verdict(s)));
    expect(search.solverCalls).toBe(1);
    expect(search.pointOfNoReturn).toBeNull();
    expect(accuracyOf(search, true, line.moves.length)).toBe(
      Math.min(100, Math.round((100 * (search.par ?? 0)) / line.moves.length)),
    );
  });

  it('a log that does not belong to the deal is refused (null), not half-replayed', () => {
    const deal = dealFromNumber(5);
    if (!deal.ok) throw new Error('deal');
    expect(
      playedLine(deal.value, options, [
        { type: 'move', move: { type: 'move', from: 't1', to: 'fC', count: 5 } },
      ]),
    ).toBeNull();
  });
});
