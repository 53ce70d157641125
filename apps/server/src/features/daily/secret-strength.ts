/**
 * How strong DAILY_SECRET must be (docs/configuration.md). The daily deals are derived from it, and the
 * commitments to a day's deals are published a day ahead, so anyone may test guesses of the secret offline
 * against them: the secret must be out of reach of such a search, 32 random bytes (256 bits).
 *
 * Entropy cannot be measured from one value, so the rule is on the form random bytes take when written out,
 * plus checks that catch the obvious weak values written in that form:
 * - 64+ hex characters, or 43+ base64 / base64url characters (`=` padding not counted): 32 bytes' worth;
 * - not one character nor a few (10+ different hex digits, 16+ different base64 characters), not a
 *   pattern repeated, not a run such as the alphabet in order (no step between neighbours for more than a
 *   quarter of them), and not the placeholder of `.env.example` (it holds `change-me`).
 * A value of 32 random bytes passes all of these (the odds against are below 1 in 10¹⁰); what they do not
 * stop is a secret that merely looks random, e.g. one copied from a public page.
 */

/** How to make a good secret, as the start-up error and the docs say it. */
export const DAILY_SECRET_HOWTO =
  "make one with `openssl rand -base64 32` or `node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64url'))\"`";

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The smallest period p ≤ length/2 with s[i] = s[i + p] throughout, or null when `s` repeats no pattern. */
function period(s: string): number | null {
  for (let p = 1; p <= s.length / 2; p++) {
    let repeats = true;
    for (let i = p; i < s.length && repeats; i++) repeats = s[i] === s[i - p];
    if (repeats) return p;
  }
  return null;
}

/** How many neighbours share the most common step between their character codes. */
function commonestStep(s: string): number {
  const steps = new Map<number, number>();
  let most = 0;
  for (let i = 1; i < s.length; i++) {
    const d = s.charCodeAt(i) - s.charCodeAt(i - 1);
    const n = (steps.get(d) ?? 0) + 1;
    steps.set(d, n);
    most = Math.max(most, n);
  }
  return most;
}

/**
 * Why `secret` is too weak to be DAILY_SECRET, or null when it is strong enough (the module comment has
 * the rule). The reason never quotes the secret.
 */
export function dailySecretProblem(secret: string): string | null {
  if (/change-me/i.test(secret)) return "it is still .env.example's placeholder";
  const hex = HEX.test(secret);
  const body = secret.replace(/=+$/, '');
  if (hex ? secret.length < 64 : !BASE64.test(secret))
    return hex
      ? `${secret.length} hex characters hold fewer than 32 bytes (64+ needed)`
      : 'it is neither hex nor base64 of random bytes';
  if (!hex && body.length < 43)
    return `${body.length} base64 characters hold fewer than 32 bytes (43+ needed)`;
  const distinct = new Set(body).size;
  if (distinct < (hex ? 10 : 16)) return `it uses only ${distinct} different characters`;
  if (period(body) !== null) return 'it repeats a pattern';
  if (commonestStep(body) * 4 > body.length - 1) return 'it runs through characters in order';
  return null;
}
