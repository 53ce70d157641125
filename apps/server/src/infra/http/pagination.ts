/**
 * One pagination for every list route (issue 59 item 3; docs/api.md "Pagination"). A route takes `limit`
 * and `cursor` (protocol's `pageQuery`), answers `nextCursor` (null on the last page), and plugin
 * `pagination` (edge/plugins/pagination.ts) adds the RFC 8288 `Link: <…>; rel="next"` header to every
 * answer whose `nextCursor` is a string. Routes that had `offset` still take it (deprecated).
 *
 * A cursor is opaque to clients: base64url of `<route key>.<position>`, where the position is a row count
 * to skip (or, for a keyset route, the key to continue after). Decoding checks both: a cursor of another
 * route, an edited one or garbage is refused with 400 `bad-request`.
 */
import { ApiError } from '../errors.js';

/** The largest position a cursor may carry. */
const MAX_POSITION = 1_000_000_000;

/** The cursor of position `position` (a non-negative integer) of the list route named `key`. */
export function encodeCursor(key: string, position: number): string {
  return Buffer.from(`${key}.${position}`, 'utf8').toString('base64url');
}

/** The position in a cursor of route `key`. Errors: `bad-request` for anything `encodeCursor(key, …)` did not make. */
export function decodeCursor(key: string, cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^([a-z-]+)\.(0|[1-9]\d{0,9})$/.exec(text);
  const position = m === null ? NaN : Number(m[2]);
  if (m === null || m[1] !== key || !(position <= MAX_POSITION) || encodeCursor(key, position) !== cursor)
    throw new ApiError('bad-request', 'this cursor is not one this list gave (pass `nextCursor` unchanged)');
  return position;
}

/** A page query: `limit`, and `cursor` or the deprecated `offset` (the cursor wins). */
export interface PageQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly offset?: number | undefined;
}

/** The first row of the page: the cursor's position, else `offset`, else 0. Errors: `bad-request` (cursor). */
export function pageStart(key: string, q: PageQuery): number {
  if (q.cursor !== undefined) return decodeCursor(key, q.cursor);
  return q.offset ?? 0;
}

/** The `nextCursor` of a page of `count` rows from `start`, out of `total`: null when it is the last page. */
export function nextCursor(key: string, start: number, count: number, total: number): string | null {
  return start + count < total ? encodeCursor(key, start + count) : null;
}

/** One page of a list held in full (a bounded list): its rows and its `nextCursor`. Errors: as `pageStart`. */
export function slicePage<T>(
  key: string,
  items: readonly T[],
  q: PageQuery,
): { page: T[]; nextCursor: string | null } {
  const start = pageStart(key, q);
  const page = items.slice(start, start + q.limit);
  return { page, nextCursor: nextCursor(key, start, page.length, items.length) };
}

/**
 * The `Link` header of the next page of request URL `url` (path and query, as received): the same query
 * with `cursor` set to `next` and any `offset` (or the mod log's `before`) dropped. The target is a relative
 * reference (RFC 8288 §3.1), resolved against the request's own URL.
 */
export function nextLink(url: string, next: string): string {
  const u = new URL(url, 'http://localhost');
  u.searchParams.delete('offset');
  u.searchParams.delete('before');
  u.searchParams.set('cursor', next);
  return `<${u.pathname}${u.search}>; rel="next"`;
}
