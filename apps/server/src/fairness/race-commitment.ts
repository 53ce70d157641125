/**
 * Commit-reveal of a race's deal (docs/fairness.md "Races"): from the moment a room's deal is made its view
 * shows `dealCommitment` = SHA-256 (hex) of a one-line preimage; the results reveal the preimage, so every
 * racer can check that the deal was not changed during the race:
 *
 *     klondike-race|<code>|deal-v2|<key>        a random or certified deal (key: 64 lower-case hex)
 *     klondike-race|<code>|deal-v1|<number>     a deal the host chose by number (a known deal)
 *
 * `code` is the room's invite code: the same deal in two rooms commits differently. Pure (node:crypto only).
 */
import { createHash } from 'node:crypto';

/** The first field of every race preimage (domain separation from the dailies' `klondike-daily`). */
export const RACE_PREIMAGE_TAG = 'klondike-race';

/** What a room's deal came from: a v2 key or a v1 deal number. */
export interface RaceDealSource {
  readonly code: string;
  readonly dealKey: string | null;
  readonly dealNumber: bigint | number | null;
}

/** The preimage of a room's deal (module comment), or null while the room has no deal. */
export function racePreimage(r: RaceDealSource): string | null {
  if (r.dealKey !== null && /^[0-9a-f]{64}$/.test(r.dealKey))
    return [RACE_PREIMAGE_TAG, r.code, 'deal-v2', r.dealKey].join('|');
  if (r.dealNumber !== null) return [RACE_PREIMAGE_TAG, r.code, 'deal-v1', String(r.dealNumber)].join('|');
  return null;
}

/** SHA-256 (lower-case hex) of a room's preimage, or null while the room has no deal. */
export function raceCommitment(r: RaceDealSource): string | null {
  const preimage = racePreimage(r);
  return preimage === null ? null : createHash('sha256').update(preimage).digest('hex');
}
