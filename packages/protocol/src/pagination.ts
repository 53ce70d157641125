/**
 * One pagination for every list route (issue 59 item 3; docs/api.md "Pagination"): `limit` and an opaque
 * `cursor` in, `nextCursor` out (null on the last page), and an RFC 8288 `Link: <…>; rel="next"` header
 * when there is a next page. Routes that had `offset` still take it (deprecated).
 */
import { z } from 'zod';

/** An opaque page cursor: the `nextCursor` of the previous page of the same route, as it was given. */
export const PageCursorSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'a cursor from nextCursor')
  .describe("The previous page's `nextCursor`, unchanged (opaque; 400 for anything else).");

/** The deprecated `offset` of the routes that had it: rows to skip. Use `cursor`. */
export const DeprecatedOffsetSchema = z.coerce.number().int().min(0).max(1_000_000).optional().meta({
  deprecated: true,
  description: 'Deprecated: rows to skip. Use `cursor` (wins when both are sent).',
});

/** The query of a list route: `limit` (default `def`, at most `max`) and `cursor`. */
export function pageQuery(def: number, max: number) {
  return {
    limit: z.coerce.number().int().min(1).max(max).default(def),
    cursor: PageCursorSchema.optional(),
  };
}

/** The `nextCursor` of a page: pass it as `cursor` for the next page; null on the last page. */
export const NextCursorSchema = z
  .string()
  .nullable()
  .describe(
    'Pass as `cursor` for the next page (also in the `Link` header, rel="next"); null on the last page.',
  );
