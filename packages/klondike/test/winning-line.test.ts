import { describe, expect, it } from 'vitest';
import { applyMove, gameStatus, newGame, parseDeal, playerView, resolveOptions } from '../src/index.js';
import { greedyLine, winnableDeal } from '../src/testing.js';

describe('R3/R12: a known deal played along a known winning line is won', () => {
  for (const preset of ['classic-draw1', 'classic-draw3', 'vegas-draw1', 'vegas-draw3'] as const) {
    it(`R12: ${preset}`, () => {
      const options = resolveOptions(preset);
      const deal = parseDeal(winnableDeal(options.draw));
      expect(deal.ok).toBe(true);
      if (!deal.ok) return;
      const { moves, end } = greedyLine(newGame(deal.value, options));
      expect(gameStatus(end)).toBe('won');
      // Replaying the line move by move also wins, and every step is legal.
      let s = newGame(deal.value, options);
      for (const m of moves) {
        const r = applyMove(s, m);
        expect(r.ok).toBe(true);
        if (r.ok) s = r.value;
      }
      expect(playerView(s, 60_000).status).toBe('won');
      expect(playerView(s, 60_000).foundations).toEqual({ fC: 'KC', fD: 'KD', fH: 'KH', fS: 'KS' });
    });
  }
});
