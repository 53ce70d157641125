/** Shared helpers of the solver tests. */
import {
  type Deal,
  type GameOptions,
  type GameState,
  type Move,
  applyMove,
  dealFromNumber,
  gameStatus,
  parseCard,
  resolveOptions,
} from '@klondike/rules';

/** The deal of a deal number (throws on a bad number). */
export function deal(n: number): Deal {
  const r = dealFromNumber(n);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Card id of a code such as `TH` (throws on a bad code). */
export function card(code: string): number {
  const c = parseCard(code);
  if (c === undefined) throw new Error(`bad card ${code}`);
  return c;
}

/** Classic options with overrides. */
export function opts(draw: 1 | 3, overrides: Partial<GameOptions> = {}): GameOptions {
  return resolveOptions(draw === 1 ? 'classic-draw1' : 'classic-draw3', overrides);
}

/** Replays `line` from `state` with the rules package; returns the end state's status ('illegal' on a refused move). */
export function replayStatus(state: GameState, line: readonly Move[]): string {
  let s = state;
  for (const m of line) {
    const r = applyMove(s, m);
    if (!r.ok) return 'illegal';
    s = r.value;
  }
  return gameStatus(s);
}

/** A deterministic PRNG for test playouts (the rules package's seeded test generator). */
export { testRandom as rng } from '@klondike/rules/testing';
