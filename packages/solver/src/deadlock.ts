/**
 * P8 (README.md "Pruning rules"): the static impossibility certificate, a fixpoint over the cards of an
 * engine position.
 */
import type { EngineRules } from './model.js';
import {
  PILE_CAP as PILE_CAP_,
  RANK_OF as RANK_OF_,
  RED_OF as RED_OF_,
  SUIT_OF as SUIT_OF_,
} from './moves.js';

// Local copies of what moves.ts exports: the hot loops read a constant of this module, not an imported live
// binding, which V8 reads several percent slower when the solver runs from its sources (tsx, tests); the
// bundle the server runs is the same either way (BENCHMARKS.md "Issue 56").
const PILE_CAP = PILE_CAP_;
const RANK_OF = RANK_OF_;
const RED_OF = RED_OF_;
const SUIT_OF = SUIT_OF_;

/** What the certificate reads of a position (the engine's arrays: `Engine` in engine.ts). */
export interface DeadlockView {
  readonly rules: EngineRules;
  /** Seven piles of `PILE_CAP` slots, bottom first. */
  readonly cards: Int8Array;
  /** Cards per pile. */
  readonly len: Int8Array;
  /** Face-down cards per pile. */
  readonly fd: Int8Array;
  /** Foundation heights, suit order C, D, H, S. */
  readonly found: Int8Array;
}

// Scratch of `deadlocked` (one call at a time: the searches are synchronous).
const LOC = new Int8Array(52);
const ABOVE = new Int8Array(52);
const BELOW = new Int8Array(52);
const MOVED = new Uint8Array(52);
const HOME = new Uint8Array(52);
const BOTTOMS = new Int8Array(7);

/**
 * P8: a static impossibility certificate. Computes, as a fixpoint, which cards could ever move and which
 * could ever reach their foundation, using only conditions that every winning line must meet (see the
 * README for the proof); returns true when some card can provably never reach its foundation.
 * Relaxations (each only makes a card "possible" more easily): every talon card is reachable at any time,
 * a King may always use an empty pile once any pile could have been emptied, a foundation card may come
 * back down whenever foundation-to-tableau is on.
 */
export function deadlocked(e: DeadlockView): boolean {
  const loc = LOC; // 0 foundation, 1 talon, 2 face-down, 3 face-up
  const above = ABOVE;
  const below = BELOW;
  const moved = MOVED;
  const home = HOME;
  const found = e.found;
  for (let c = 0; c < 52; c++) {
    const onF = (RANK_OF[c] as number) <= (found[SUIT_OF[c] as number] as number);
    loc[c] = onF ? 0 : 1;
    above[c] = -1;
    below[c] = -1;
    moved[c] = onF ? 1 : 0;
    home[c] = onF ? 1 : 0;
  }
  const bottoms = BOTTOMS;
  let nb = 0;
  let emptyPile = false;
  for (let i = 0; i < 7; i++) {
    const l = e.len[i] as number;
    if (l === 0) {
      emptyPile = true;
      continue;
    }
    const f = e.fd[i] as number;
    const base = i * PILE_CAP;
    bottoms[nb++] = e.cards[base] as number;
    for (let k = 0; k < l; k++) {
      const c = e.cards[base + k] as number;
      loc[c] = k < f ? 2 : 3;
      if (k + 1 < l) above[c] = e.cards[base + k + 1] as number;
      if (k > f) below[c] = e.cards[base + k - 1] as number;
    }
  }
  const f2t = e.rules.foundationToTableau;
  let changed = true;
  while (changed) {
    changed = false;
    for (let c = 0; c < 52; c++) {
      if (home[c] === 1) continue;
      const lc = loc[c] as number;
      const a = above[c] as number;
      const exposed = a < 0 || moved[a] === 1;
      const r = RANK_OF[c] as number;
      if (exposed && (r === 1 || home[c - 1] === 1)) {
        home[c] = 1;
        moved[c] = 1;
        changed = true;
        continue;
      }
      if (moved[c] === 1) continue;
      // c must be reachable: face-down cards need the card above them gone.
      if (lc === 2 && !exposed) continue;
      let can = false;
      const b = below[c] as number;
      if (b >= 0 && moved[b] === 1)
        can = true; // carried along with the run below it
      else if (r === 13) {
        if (emptyPile) can = true;
        else
          for (let x = 0; x < nb; x++) {
            const b0 = bottoms[x] as number;
            if (b0 !== c && moved[b0] === 1) {
              can = true;
              break;
            }
          }
      } else {
        // onto a card one rank higher of the opposite colour
        const red = RED_OF[c] as number;
        for (let s = 0; s < 4; s++) {
          const p = s * 13 + r; // rank r + 1 of suit s
          if ((RED_OF[p] as number) === red) continue;
          const lp = loc[p] as number;
          if (
            (lp >= 2 && ((above[p] as number) < 0 || moved[above[p] as number] === 1)) ||
            (lp === 1 && moved[p] === 1) ||
            (lp === 0 && f2t)
          ) {
            can = true;
            break;
          }
        }
      }
      if (can) {
        moved[c] = 1;
        changed = true;
      }
    }
  }
  for (let c = 0; c < 52; c++) if (home[c] === 0) return true;
  return false;
}
