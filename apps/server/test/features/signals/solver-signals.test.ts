/**
 * The solver-dependent signals (features/signals/solver-agreement.ts, hidden-knowledge.ts, analysis.ts):
 * a player copying the solver's line agrees with it; the budget of solves is kept; the oracle — the
 * solver's full-knowledge line played by a bot — hits the branches only full knowledge favours, while
 * visible-information players (a fixed rule and a random one over the turn-up moves, never the hidden card)
 * stay under the hidden-knowledge threshold on the same 50 deals (summed, as over one account's 50 games).
 */
import { type Move, PRESETS, applyMove, dealFromNumber, newGame, type Deal } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { analyseGame } from '../../../src/features/signals/analysis.js';
import { hiddenKnowledge, turnUpBranches } from '../../../src/features/signals/hidden-knowledge.js';
import { PositionSolver, playedMoves, positionKey } from '../../../src/features/signals/positions.js';
import { solverAgreement } from '../../../src/features/signals/solver-agreement.js';
import { THRESHOLDS, binomialTail } from '../../../src/features/signals/thresholds.js';
import {
  logNormalGaps,
  mostFaceDown,
  oracleLine,
  randomPick,
  timedLog,
  visiblePlayer,
} from '../../support/fair-play-players.js';
import { prng } from '../../support/helpers.js';

const DRAW1 = PRESETS['classic-draw1'];
const DRAW3 = PRESETS['classic-draw3'];

function deal(n: number): Deal {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  return d.value;
}

const asLog = (moves: readonly Move[]) => moves.map((move) => ({ kind: 'move' as const, move }));

describe('solver agreement', () => {
  it("a player copying the solver's own line agrees on every choice, with one solve", () => {
    const d = deal(1);
    const solver = new PositionSolver(20_000);
    const v = solver.verdict(newGame(d, DRAW1));
    expect(v.verdict).toBe('won');
    if (v.verdict !== 'won') return;
    const played = playedMoves(d, DRAW1, asLog(v.line));
    const a = solverAgreement(played, solver, 20);
    expect(a.counted).toBeGreaterThan(10);
    expect(a.agreement).toBe(1);
    expect(solver.solves).toBe(1);
  });

  it('a visible-information player deviates; the budget of solves is never exceeded; no budget, no verdict', () => {
    const d = deal(4);
    const moves = visiblePlayer(newGame(d, DRAW1), mostFaceDown);
    const played = playedMoves(d, DRAW1, asLog(moves));
    const solver = new PositionSolver(20_000);
    const a = solverAgreement(played, solver, 5);
    expect(solver.solves).toBeLessThanOrEqual(5);
    expect(a.agreement === null || a.agreement < 1).toBe(true);
    expect(solverAgreement(played, new PositionSolver(20_000), 0)).toEqual({
      agreement: null,
      counted: 0,
      agreed: 0,
    });
  });

  it('positions: undo replays back; the key ignores score and move count', () => {
    const d = deal(2);
    const start = newGame(d, DRAW1);
    const played = playedMoves(d, DRAW1, [
      { kind: 'move', move: { type: 'draw' } },
      { kind: 'undo' },
      { kind: 'move', move: { type: 'draw' } },
      { kind: 'resign' },
      { kind: 'move', move: { type: 'draw' } },
    ]);
    expect(played.map((p) => p.index)).toEqual([0, 2]);
    expect(positionKey((played[1] as { before: typeof start }).before)).toBe(positionKey(start));
    const drawn = applyMove(start, { type: 'draw' });
    expect(drawn.ok && positionKey(drawn.value)).toBe(
      positionKey((played[0] as { after: typeof start }).after),
    );
  });
});

describe('hidden knowledge', () => {
  it('turn-up branches are the moves of every face-up card of a pile with face-down cards', () => {
    const s = newGame(deal(3), DRAW1);
    for (const [t, moves] of turnUpBranches(s)) {
      const pile = s.tableau[t];
      expect(pile?.faceDown).toBeGreaterThan(0);
      for (const m of moves)
        expect(m).toMatchObject({ count: (pile?.cards.length ?? 0) - (pile?.faceDown ?? 0) });
    }
  });

  it('the oracle hits the branches only full knowledge favours; visible-information players stay under the threshold', () => {
    const random = prng(55);
    const totals: Record<'oracle' | 'fixed' | 'random', [number, number]> = {
      oracle: [0, 0],
      fixed: [0, 0],
      random: [0, 0],
    };
    for (let n = 1; n <= THRESHOLDS['hidden-knowledge'].accountGames; n++) {
      const d = deal(n);
      const start = newGame(d, DRAW3);
      const lines = {
        oracle: oracleLine(start),
        fixed: visiblePlayer(start, mostFaceDown),
        random: visiblePlayer(start, randomPick(random)),
      };
      for (const key of ['oracle', 'fixed', 'random'] as const) {
        const line = lines[key];
        if (line === null) continue;
        const h = hiddenKnowledge(playedMoves(d, DRAW3, asLog(line)), new PositionSolver(20_000), 200);
        expect(h.hiddenHits).toBeLessThanOrEqual(h.hiddenChoices);
        expect(h.expectedHits).toBeLessThanOrEqual(h.hiddenChoices / 2);
        totals[key][0] += h.hiddenChoices;
        totals[key][1] += h.hiddenHits;
      }
    }
    const [oc, oh] = totals.oracle;
    expect(oc).toBeGreaterThanOrEqual(THRESHOLDS['hidden-knowledge'].minChoices);
    expect(oh / oc, `oracle: ${oh} of ${oc}`).toBeGreaterThanOrEqual(0.85);
    const rule = THRESHOLDS['hidden-knowledge'];
    // Summed as over an account: the oracle passes the threshold, the honest players do not.
    expect(binomialTail(oh, oc, rule.nullHitRate)).toBeLessThan(rule.maxTail);
    for (const key of ['fixed', 'random'] as const) {
      const [c, h] = totals[key];
      expect(binomialTail(h, c, rule.nullHitRate), `${key}: ${h} of ${c}`).toBeGreaterThanOrEqual(
        rule.maxTail,
      );
    }
  });

  it('analyseGame puts the signals together, and skips the solver on request', () => {
    const d = deal(6);
    const moves = visiblePlayer(newGame(d, DRAW1), mostFaceDown);
    const log = timedLog(moves, logNormalGaps(prng(1), 1_500, 0.6));
    const a = analyseGame({ deal: d, options: DRAW1, log, budget: false });
    expect(a).toMatchObject({ moves: moves.length, solverAgreement: null, hiddenChoices: 0, solves: 0 });
    expect(a.medianGapMs).toBeGreaterThan(500);
    const full = analyseGame({ deal: d, options: DRAW1, log });
    expect(full.solves).toBeGreaterThan(0);
    expect(full.medianGapMs).toBe(a.medianGapMs);
  });
});
