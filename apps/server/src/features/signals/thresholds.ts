/**
 * The thresholds of the automatic flags (docs/fair-play.md "Flags") and `flagsOf`, which tells the ones a
 * game's signals pass, each with its evidence. Pure. Their false-positive and detection rates are measured
 * by `pnpm bench:signals` (bench/signals.bench.ts) and written in docs/fair-play.md.
 */

/** The thresholds, by flag name. Times in ms; shares 0…1. */
export const THRESHOLDS = {
  /** One rated game at machine speed: this many moves or more with a median gap under `medianGapMs`. */
  'machine-speed': { minMoves: 30, medianGapMs: 150 },
  /** Machine-regular timing: this many moves or more with a coefficient of variation of the gaps under `maxVariation`. */
  'regular-timing': { minMoves: 30, maxVariation: 0.15 },
  /** Agreement with the solver's line of `minAgreement` or more over `minMoves` counted choices or more. */
  'solver-agreement': { minMoves: 40, minAgreement: 0.95 },
  /**
   * Hidden knowledge: `minChoices` or more hidden choices and a binomial tail P(X ≥ hits | n = choices,
   * p = `nullHitRate`) under `maxTail`; in one game, or summed over the account's last `accountGames` rated
   * games (a game holds about one such choice). `nullHitRate` is an honest player's hit rate with margin:
   * in theory at most ½, measured 50–63 % for visible-information players (the visible table says something
   * about which branch stays winnable), so 0.65 (`pnpm bench:signals`).
   */
  'hidden-knowledge': { minChoices: 8, maxTail: 0.001, nullHitRate: 0.65, accountGames: 50 },
  /** Over an account: `minGames` of its last `lastGames` rated games past the softer lines below. */
  'repeated-signals': { lastGames: 10, minGames: 3, medianGapMs: 300, minAgreement: 0.95 },
} as const;

/** A flag's name. */
export type FlagReason = keyof typeof THRESHOLDS;

/** What the thresholds read of one game's signals. */
export interface SignalsForFlags {
  readonly moves: number;
  readonly medianGapMs: number | null;
  readonly fastShare: number;
  readonly gapVariation: number | null;
  readonly solverAgreement: number | null;
  /** Choices the agreement was counted over. */
  readonly agreementMoves: number;
  readonly hiddenChoices: number;
  readonly hiddenHits: number;
}

/** A threshold a game passed, with the figures that passed it. */
export interface PassedThreshold {
  readonly reason: FlagReason;
  readonly evidence: Record<string, number | string | boolean | null>;
}

/** ln C(n, k) by sums of logarithms (n ≤ a few thousand). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** P(X ≥ k) for X ~ Binomial(n, p), 0 ≤ k ≤ n; 1 for k ≤ 0, 0 for k > n. */
export function binomialTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let sum = 0;
  for (let i = k; i <= n; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  return Math.min(1, sum);
}

/**
 * The thresholds one game's signals pass (each with its evidence). A bot's account (`bot`) may play at
 * machine speed and with a solver's help, openly: it is never flagged for speed, regularity or agreement,
 * only for hidden knowledge, which nobody may have.
 */
export function flagsOf(s: SignalsForFlags, bot: boolean): PassedThreshold[] {
  const out: PassedThreshold[] = [];
  const speed = THRESHOLDS['machine-speed'];
  if (!bot && s.moves >= speed.minMoves && s.medianGapMs !== null && s.medianGapMs < speed.medianGapMs)
    out.push({
      reason: 'machine-speed',
      evidence: {
        moves: s.moves,
        medianGapMs: s.medianGapMs,
        fastShare: round(s.fastShare),
        threshold: speed.medianGapMs,
      },
    });
  const regular = THRESHOLDS['regular-timing'];
  if (!bot && s.moves >= regular.minMoves && s.gapVariation !== null && s.gapVariation < regular.maxVariation)
    out.push({
      reason: 'regular-timing',
      evidence: { moves: s.moves, gapVariation: round(s.gapVariation), threshold: regular.maxVariation },
    });
  const agree = THRESHOLDS['solver-agreement'];
  if (
    !bot &&
    s.solverAgreement !== null &&
    s.agreementMoves >= agree.minMoves &&
    s.solverAgreement >= agree.minAgreement
  )
    out.push({
      reason: 'solver-agreement',
      evidence: {
        agreement: round(s.solverAgreement),
        choices: s.agreementMoves,
        threshold: agree.minAgreement,
      },
    });
  const hidden = THRESHOLDS['hidden-knowledge'];
  if (s.hiddenChoices >= hidden.minChoices) {
    const tail = binomialTail(s.hiddenHits, s.hiddenChoices, hidden.nullHitRate);
    if (tail < hidden.maxTail)
      out.push({
        reason: 'hidden-knowledge',
        evidence: { choices: s.hiddenChoices, hits: s.hiddenHits, tail, threshold: hidden.maxTail },
      });
  }
  return out;
}

/**
 * Whether one stored game passes the softer lines of `repeated-signals` (a human account's game: bots
 * never). A stored agreement is null below MIN_AGREEMENT_CHOICES counted choices.
 */
export function isSuspect(s: Pick<SignalsForFlags, 'moves' | 'medianGapMs' | 'solverAgreement'>): boolean {
  const r = THRESHOLDS['repeated-signals'];
  const fast =
    s.moves >= THRESHOLDS['machine-speed'].minMoves &&
    s.medianGapMs !== null &&
    s.medianGapMs < r.medianGapMs;
  return fast || (s.solverAgreement !== null && s.solverAgreement >= r.minAgreement);
}

/** Below this many counted choices a game's solver agreement is stored as null (too few to mean anything). */
export const MIN_AGREEMENT_CHOICES = 10;

/** `x` to 4 decimals (evidence shown to moderators). */
function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
