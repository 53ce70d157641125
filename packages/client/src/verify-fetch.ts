/**
 * How the verifiers (verify.ts, verify-race.ts) read a server's public answers: GET as JSON, waiting out
 * rate limits.
 */

/** Times a request refused with 429 is tried again (after its `retry-after`, at most RETRY_WAIT_MAX_S s). */
const RETRIES = 5;
/** The longest wait before trying a refused request again, s. */
const RETRY_WAIT_MAX_S = 60;

/**
 * GETs `path` of `base` as JSON; a 429 answer is tried again after its `retry-after` (the verifier reads one
 * player page per player, more than a server's rate limit may allow at once). Throws on any other non-2xx.
 */
export async function getJsonFrom(doFetch: typeof fetch, base: string, path: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const r = await doFetch(`${base}${path}`);
    const text = await r.text();
    if (r.status === 429 && attempt < RETRIES) {
      const wait = Math.min(RETRY_WAIT_MAX_S, Math.max(1, Number(r.headers.get('retry-after')) || 1));
      await new Promise((done) => setTimeout(done, wait * 1000));
      continue;
    }
    if (!r.ok) throw new Error(`GET ${path} → ${r.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }
}
