/**
 * Deals nobody can predict (docs/features.md "Fair play"): every deal the server makes without being given one —
 * random casual games, races, dailies — is a deal of algorithm v2 (`dealFromKey`, rules package) of a
 * 256-bit key. The key of a random deal comes from `node:crypto` and is stored with the game or race; a
 * daily's key is HMAC-SHA256(daily secret, `<date>|<preset>|<k>`), so a day is reproducible only by whoever
 * holds the secret. Keys never leave the server.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { type Deal, dealFromKey } from '@klondike/rules';

/** A v2 deal and its key (hex). */
export interface KeyedDeal {
  readonly deal: Deal;
  /** The 32-byte key in hex: secret, stored server-side only. */
  readonly key: string;
}

/** The v2 deal of a key given in hex. Errors: throws when the key is not 32 bytes (a corrupt row). */
export function dealOfKey(keyHex: string): Deal {
  const r = dealFromKey(Buffer.from(keyHex, 'hex'));
  if (!r.ok) throw new Error(`stored deal key unreadable: ${r.error.message}`);
  return r.value;
}

/** A fresh random deal: a 256-bit key from the operating system's CSPRNG, dealt with algorithm v2. */
export function randomKeyedDeal(): KeyedDeal {
  const key = randomBytes(32).toString('hex');
  return { deal: dealOfKey(key), key };
}

/** The key of candidate `k` of a daily: HMAC-SHA256(secret, `<date>|<preset>|<k>`), hex. */
export function dailyCandidateKey(secret: string, date: string, preset: string, k: number): string {
  return createHmac('sha256', secret).update(`${date}|${preset}|${k}`, 'utf8').digest('hex');
}
