/**
 * Seeded deals (docs/rules.md R2) and the deal notation of docs/protocol.md ("Notation").
 *
 * A *deal* is the 52 cards in deal order: cards 1–28 go cross-wise to the tableau (1–7 to piles 1–7,
 * 8–13 to piles 2–7, …), cards 29–52 form the stock, card 29 on top (drawn first).
 *
 * ## Deal algorithm, version 1 (`DEAL_ALGORITHM_VERSION = 1`)
 * Given a deal number `n` (an integer 1 … 2^32−1):
 * 1. **Seed expansion (SplitMix64).** `x = BigInt(n)`; four times: `x = (x + 0x9E3779B97F4A7C15) mod 2^64`,
 *    `z = x`; `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2^64`; `z = (z ^ (z >> 27)) * 0x94D049BB133111EB
 *    mod 2^64`; `z = z ^ (z >> 31)`. The first two outputs give the four 32-bit words of the generator
 *    state, low half first: `s0 = lo(z1), s1 = hi(z1), s2 = lo(z2), s3 = hi(z2)`.
 * 2. **Generator (xoshiro128\*\*, Blackman & Vigna).** `next()`: `result = rotl(s1 * 5, 7) * 9`; `t = s1 << 9`;
 *    `s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)`; all arithmetic mod 2^32,
 *    `result` read as an unsigned 32-bit integer.
 * 3. **Unbiased bounded integer.** `below(m)`: draw `r = next()` until `r < 2^32 − (2^32 mod m)`, return
 *    `r mod m` (rejection sampling, so every value is equally likely).
 * 4. **Shuffle (Fisher–Yates, Durstenfeld).** Start from the ordered pack `AC 2C … KC AD … KD AH … KH AS … KS`;
 *    for `i` from 51 down to 1: `j = below(i + 1)`, swap positions `i` and `j`.
 * 5. The shuffled pack, position 0 first, is the deal in deal order.
 *
 * The golden tests in `test/deal.test.ts` pin several deal numbers, so any change of algorithm fails a test;
 * a new algorithm must get a new version number, never replace this one.
 *
 * Version 1 is public and has only 2^32 deals: the face-up cards of an opening identify the number. It is
 * for what numbers are for (sharing "deal #617", importing a number), never for a competitive deal.
 *
 * ## Deal algorithm, version 2 (`DEAL_KEY_BYTES` = 32): keyed, for every competitive deal
 * Given a 256-bit deal key `K` (32 bytes; random per deal, or derived with HMAC from a server secret):
 * 1. **Stream (ChaCha20, RFC 8439).** The key stream of ChaCha20 with key `K`, a nonce of 12 zero bytes and
 *    block counter 0, 1, 2, …; read as consecutive unsigned 32-bit little-endian words.
 * 2. **Unbiased bounded integer** and **shuffle** exactly as steps 3–5 of version 1, with `next()` = the
 *    next word of that stream.
 * Without the key, the deal cannot be predicted from any number of other deals, nor searched for: the key
 * space is 2^256. The vectors in `test/deal.test.ts` (and the package README) pin the algorithm.
 */
import { chacha20 } from '@noble/ciphers/chacha.js';
import { type Card, cardCode, parseCard } from './cards.js';
import { type Result, err, ok } from './result.js';

/** Version of the documented shuffle algorithm above. */
export const DEAL_ALGORITHM_VERSION = 1 as const;
/** Smallest deal number. */
export const MIN_DEAL_NUMBER = 1;
/** Largest deal number, 2^32 − 1. */
export const MAX_DEAL_NUMBER = 0xffff_ffff;

/** A full deal: 52 distinct engine cards in deal order. */
export type Deal = readonly Card[];

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64 (Steele, Lea, Flood): a generator of unsigned 64-bit BigInts, used to expand a deal number. */
export function splitMix64(seed: bigint): () => bigint {
  let x = seed & MASK64;
  return () => {
    x = (x + 0x9e3779b97f4a7c15n) & MASK64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/**
 * The xoshiro128** generator (Blackman & Vigna) from four 32-bit state words (not all zero).
 * Returns a function yielding unsigned 32-bit integers.
 */
export function xoshiro128ss(a: number, b: number, c: number, d: number): () => number {
  let s0 = a >>> 0;
  let s1 = b >>> 0;
  let s2 = c >>> 0;
  let s3 = d >>> 0;
  return () => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return result;
  };
}

/** The deal generator of algorithm version 1: xoshiro128** seeded from the deal number through SplitMix64. */
export function dealRandom(dealNumber: number): () => number {
  const sm = splitMix64(BigInt(dealNumber));
  const z1 = sm();
  const z2 = sm();
  return xoshiro128ss(
    Number(z1 & 0xffffffffn),
    Number(z1 >> 32n),
    Number(z2 & 0xffffffffn),
    Number(z2 >> 32n),
  );
}

/** True when `n` is a valid deal number (an integer 1 … 2^32−1). */
export function isDealNumber(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_DEAL_NUMBER && n <= MAX_DEAL_NUMBER;
}

/** Errors of deal parsing and numbering. */
export type DealError =
  | { readonly code: 'bad-deal-number'; readonly message: string }
  | { readonly code: 'bad-deal-key'; readonly message: string }
  | { readonly code: 'bad-deal'; readonly message: string };

/** Length of a version-2 deal key, in bytes (256 bits). */
export const DEAL_KEY_BYTES = 32;

/** Bytes of key stream made per ChaCha20 call (4 blocks of 64 bytes): far more than one shuffle needs. */
const STREAM_CHUNK = 256;

/**
 * The generator of deal algorithm version 2: the ChaCha20 (RFC 8439) key stream of `key` (32 bytes) with
 * a zero nonce from block 0, as unsigned 32-bit little-endian words. The key must be 32 bytes (checked by
 * `dealFromKey`).
 */
export function keyedDealRandom(key: Uint8Array): () => number {
  const nonce = new Uint8Array(12);
  let counter = 0;
  let words = new Uint32Array(0);
  let at = 0;
  return () => {
    if (at >= words.length) {
      const bytes = chacha20(key, nonce, new Uint8Array(STREAM_CHUNK), undefined, counter);
      counter += STREAM_CHUNK / 64;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      words = Uint32Array.from({ length: STREAM_CHUNK / 4 }, (_, i) => view.getUint32(i * 4, true));
      at = 0;
    }
    return words[at++] as number;
  };
}

/** Fisher–Yates (Durstenfeld) of the ordered pack with unbiased `below(m)` over 32-bit words of `next`. */
function shuffledPack(next: () => number): Card[] {
  const below = (m: number): number => {
    const limit = 0x1_0000_0000 - (0x1_0000_0000 % m);
    for (;;) {
      const r = next();
      if (r < limit) return r % m;
    }
  };
  const pack: Card[] = Array.from({ length: 52 }, (_, c) => c);
  for (let i = 51; i >= 1; i--) {
    const j = below(i + 1);
    const t = pack[i] as Card;
    pack[i] = pack[j] as Card;
    pack[j] = t;
  }
  return pack;
}

/**
 * The deal of a 256-bit key under algorithm version 2 (see the module comment): for dailies, races and
 * random casual games, whose deals nobody may predict.
 * Errors: `bad-deal-key` when `key` is not 32 bytes.
 */
export function dealFromKey(key: Uint8Array): Result<Deal, DealError> {
  if (key.length !== DEAL_KEY_BYTES)
    return err({
      code: 'bad-deal-key',
      message: `a deal key has ${DEAL_KEY_BYTES} bytes, got ${key.length}`,
    });
  return ok(shuffledPack(keyedDealRandom(key)));
}

/**
 * The deal of a deal number under algorithm version 1 (docs/rules.md R2).
 * Errors: `bad-deal-number` when `n` is not an integer 1 … 2^32−1.
 */
export function dealFromNumber(dealNumber: number): Result<Deal, DealError> {
  if (!isDealNumber(dealNumber)) {
    return err({ code: 'bad-deal-number', message: `deal number must be an integer 1..${MAX_DEAL_NUMBER}` });
  }
  return ok(shuffledPack(dealRandom(dealNumber)));
}

/**
 * Parses a deal in the public notation: 52 distinct card codes in deal order, separated by white space.
 * Errors: `bad-deal` naming the first problem (wrong count, unknown code, duplicate).
 */
export function parseDeal(text: string): Result<Deal, DealError> {
  const codes = text
    .trim()
    .split(/\s+/)
    .filter((s) => s.length > 0);
  if (codes.length !== 52)
    return err({ code: 'bad-deal', message: `a deal has 52 cards, got ${codes.length}` });
  const seen = new Set<Card>();
  const deal: Card[] = [];
  for (const code of codes) {
    const card = parseCard(code);
    if (card === undefined) return err({ code: 'bad-deal', message: `unknown card code "${code}"` });
    if (seen.has(card)) return err({ code: 'bad-deal', message: `card ${code} appears twice` });
    seen.add(card);
    deal.push(card);
  }
  return ok(deal);
}

/** Writes a deal in the public notation (52 codes separated by single spaces). */
export function formatDeal(deal: Deal): string {
  return deal.map((c) => cardCode(c)).join(' ');
}
