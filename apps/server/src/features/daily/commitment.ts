/**
 * Commit-reveal of the dailies (docs/fairness.md): before a day opens the server publishes
 * `commitment` = SHA-256 (hex) of the day's preimage; once the day has closed it publishes the preimage
 * itself, so anyone can check SHA-256(preimage) = commitment and deal the cards from the key with the rules
 * package's `dealFromKey` (deal algorithm v2).
 *
 * The preimage is one line of ASCII, fields separated by `|`:
 *
 *     klondike-daily|<date>|<preset>|deal-v2|<candidate>|<key>
 *
 * `date` is `YYYY-MM-DD` (UTC), `preset` a daily preset (`classic-draw1`, `classic-draw3`), `deal-v2` the
 * deal algorithm, `candidate` the index k (decimal, no leading zeros) and `key` the deal's 256-bit key in
 * lower-case hex (64 characters) = HMAC-SHA256(daily secret, `<date>|<preset>|<k>`). The key carries 256
 * bits the public cannot guess, so the commitment tells nothing before the reveal; being an HMAC output, a
 * revealed key tells nothing about any other day's key.
 *
 * Pure functions (node:crypto only): the verifier in `@klondike/client` implements the same format on its
 * own, so that a bug here cannot hide itself.
 */
import { createHash } from 'node:crypto';

/** The deal algorithm every committed daily is dealt with (rules package `dealFromKey`). */
export const COMMITTED_ALGORITHM = 'deal-v2';

/** The first field of every daily preimage (domain separation from any other hashed text). */
export const PREIMAGE_TAG = 'klondike-daily';

/** What a daily's commitment binds. */
export interface CommittedDaily {
  /** UTC date `YYYY-MM-DD`. */
  readonly date: string;
  /** Daily preset name. */
  readonly preset: string;
  /** Candidate index k (≥ 0) that became the daily. */
  readonly candidate: number;
  /** The deal's key: 64 lower-case hex characters. */
  readonly key: string;
}

/** A day's reveal: the exact preimage and its parts (see the module comment). */
export interface DailyRevealParts {
  readonly preimage: string;
  readonly key: string;
  readonly algorithm: typeof COMMITTED_ALGORITHM;
  readonly candidate: number;
}

/**
 * The preimage string of a daily (module comment). Errors: throws on a key that is not 64 lower-case hex
 * characters or a candidate that is not a whole number ≥ 0 (a corrupt row, never user input).
 */
export function dailyPreimage(d: CommittedDaily): string {
  if (!/^[0-9a-f]{64}$/.test(d.key)) throw new Error('daily key is not 64 lower-case hex characters');
  if (!Number.isSafeInteger(d.candidate) || d.candidate < 0) throw new Error('bad daily candidate');
  return [PREIMAGE_TAG, d.date, d.preset, COMMITTED_ALGORITHM, String(d.candidate), d.key].join('|');
}

/** SHA-256 of a string's UTF-8 bytes, lower-case hex. */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The public commitment of a daily: SHA-256 (hex) of its preimage. Errors: as `dailyPreimage`. */
export function dailyCommitment(d: CommittedDaily): string {
  return sha256Hex(dailyPreimage(d));
}

/** A stored daily row's commitment, or null for a daily dealt before algorithm v2 (no key to commit to). */
export function commitmentOf(row: {
  date: string;
  preset: string;
  candidate: number;
  dealKey: string | null;
}): string | null {
  if (row.dealKey === null) return null;
  return dailyCommitment({ date: row.date, preset: row.preset, candidate: row.candidate, key: row.dealKey });
}

/** A stored daily row's reveal, or null without a key. Only for a day that has closed. */
export function revealOf(row: {
  date: string;
  preset: string;
  candidate: number;
  dealKey: string | null;
}): DailyRevealParts | null {
  if (row.dealKey === null) return null;
  const preimage = dailyPreimage({
    date: row.date,
    preset: row.preset,
    candidate: row.candidate,
    key: row.dealKey,
  });
  return { preimage, key: row.dealKey, algorithm: COMMITTED_ALGORITHM, candidate: row.candidate };
}
