/**
 * Commit-reveal of a race's deal (docs/fairness.md "Races", "Race commitments are salted"): from the moment
 * a room's deal is made its view shows `dealCommitment` = SHA-256 (hex) of a one-line preimage; the results
 * reveal the preimage, so every racer can check that the deal was not changed during the race:
 *
 *     klondike-race|<code>|deal-v2|<key>|<salt>        a random or certified deal (key: 64 lower-case hex)
 *     klondike-race|<code>|deal-v1|<number>|<salt>     a deal the host chose by number (a known deal)
 *
 * `code` is the room's invite code: the same deal in two rooms commits differently. `salt` is the room's own
 * 256-bit random salt (64 lower-case hex, `newRaceSalt`), secret until the results reveal it: without it a
 * numbered room's commitment (a public code and a 32-bit number) would give its deal away to anyone trying
 * the numbers. Rooms stored before salts have none and keep their unsalted preimage (the same lines without
 * `|<salt>`). Pure but for `newRaceSalt` (node:crypto only).
 */
import { createHash, randomBytes } from 'node:crypto';

/** The first field of every race preimage (domain separation from the dailies' `klondike-daily`). */
export const RACE_PREIMAGE_TAG = 'klondike-race';

/** What a room's deal came from: a v2 key or a v1 deal number, and the room's salt (null before salts). */
export interface RaceDealSource {
  readonly code: string;
  readonly dealKey: string | null;
  readonly dealNumber: bigint | number | null;
  /** 64 lower-case hex digits, or null for a room stored before salts. */
  readonly dealSalt: string | null;
}

/** A fresh salt for a new room's commitment: 32 random bytes (node:crypto), as 64 lower-case hex digits. */
export function newRaceSalt(): string {
  return randomBytes(32).toString('hex');
}

/** The preimage of a room's deal (module comment), or null while the room has no deal. */
export function racePreimage(r: RaceDealSource): string | null {
  const salt = r.dealSalt === null ? [] : [r.dealSalt];
  if (r.dealKey !== null && /^[0-9a-f]{64}$/.test(r.dealKey))
    return [RACE_PREIMAGE_TAG, r.code, 'deal-v2', r.dealKey, ...salt].join('|');
  if (r.dealNumber !== null)
    return [RACE_PREIMAGE_TAG, r.code, 'deal-v1', String(r.dealNumber), ...salt].join('|');
  return null;
}

/** SHA-256 (lower-case hex) of a room's preimage, or null while the room has no deal. */
export function raceCommitment(r: RaceDealSource): string | null {
  const preimage = racePreimage(r);
  return preimage === null ? null : createHash('sha256').update(preimage).digest('hex');
}
