/**
 * The shapes the engine works on: rule switches, a position as the engine holds it, search tunables and
 * the search outcome (types only; `engine.ts` implements them).
 */
/** Rule switches of one search. */
export interface EngineRules {
  /** Cards per draw (R10). */
  readonly draw: 1 | 3;
  /** Redeals allowed in total (R11); -1 = unlimited. */
  readonly redealLimit: number;
  /** R5 variant: only the whole face-up run may move between tableau piles. */
  readonly wholePile: boolean;
  /** R9 variant: foundation tops may come back to the tableau. */
  readonly foundationToTableau: boolean;
  /**
   * R16: the last pass may be taken (once, in place of a redeal). Only set with draw 3: under draw 1 the
   * last pass never helps (the position before it reaches everything the position after it does).
   */
  readonly finalSinglePass?: boolean;
}

/** A position as the engine holds it. */
export interface EnginePosition {
  /** Seven piles, bottom first. */
  readonly piles: readonly (readonly number[])[];
  /** Face-down cards per pile. */
  readonly faceDown: readonly number[];
  /** Foundation heights, suit order C, D, H, S. */
  readonly foundations: readonly number[];
  /** Talon in its fixed order: the waste bottom→top, then the stock in drawing order. */
  readonly talon: readonly number[];
  /** Waste size (cards of the talon before the pointer). */
  readonly pointer: number;
  /** Recycles already made (the last pass included). */
  readonly recycles: number;
  /** R16: the last pass has been taken (draws turn one card, no recycle). Default false. */
  readonly lastPass?: boolean;
}

/** Tunables of the search (for tests and experiments; the defaults are what `solve` uses). */
export interface EngineTuning {
  /** Apply the proven-safe automatic foundation moves (P2). Default true. */
  readonly autoMoves?: boolean;
  /**
   * Win-finding only (never for a proof): also send up, automatically, any card whose opposite-colour
   * foundations are within 1 rank, or within 2 while the other same-colour foundation is within 3
   * (Solvitaire's rule), even when foundation-to-tableau is on. Default false.
   */
  readonly greedyAuto?: boolean;
  /** Only move a partial run when the card it uncovers can go up next (P9). Default true. */
  readonly partialRule?: boolean;
  /** Draw 1, unlimited redeals: a talon card goes to the tableau only when a card can go on it (P10). Default true. */
  readonly talonRule?: boolean;
  /**
   * P12: a foundation card comes down (R9) only when, right after, a card could go on it or the card under
   * it on its foundation could come down too. Default true; used only where P10 is not (P10's proof and
   * P12's are not combined).
   */
  readonly foundationRule?: boolean;
  /** Use the static impossibility certificate (P8). Default true. */
  readonly deadlock?: boolean;
  /**
   * Draw 1, unlimited redeals: also send talon cards up automatically under P2 (needs `autoMoves`).
   * Default true; the minimal search turns it off (reaching the card costs draws).
   */
  readonly talonAuto?: boolean;
  /** Key the talon pointer exactly (no P7): the minimal search, where the pointer decides the draws. */
  readonly exactPointer?: boolean;
  /**
   * O9 (minimal search): a tableau top of rank ≤ the lowest foundation + 1 that fits goes up as the only
   * move, and foundation cards of such ranks never come down (R9). Default false.
   */
  readonly lowFoundation?: boolean;
  /**
   * O10 (minimal search, one card per draw): the first talon card from the waste top on, in drawing order,
   * of rank ≤ the lowest foundation + 1 that fits its foundation: on the waste top it goes up as the only
   * move; deeper, talon moves beyond it or after a recycle are not offered. Default false.
   */
  readonly lowTalon?: boolean;
  /**
   * O11 (minimal search; generalises O9 and, with `lowTalon`, O10): with the closed foundation heights t
   * (`Engine.closedHeights`: per suit, at most its foundation height and at most one above the lower of the
   * other colour's), no foundation card of rank ≤ t of its suit comes down (R9), nor one whose descent
   * makes it a card that O11 sends straight back; a tableau top of rank r that fits goes up as the only move
   * when both other-colour t and its own t are ≥ r − 1; under `lowTalon` the same cards of the talon cap the
   * talon moves. Default false.
   */
  readonly safeFoundation?: boolean;
  /** Skip positions whose talon pointer a stored one dominates (P11, draw 3 with unlimited redeals). Default true. */
  readonly pointerDominance?: boolean;
}

/** Outcome of `Engine.search`. */
export type SearchOutcome = 'won' | 'exhausted' | 'aborted';
