/**
 * How each REST operation declares its authentication and the scope it needs, in one place: its
 * `schema.security` (the OpenAPI document's security requirements). There is one scheme, `bearerAuth`:
 * `Authorization: Bearer <token>` with a player's sign-in token (full rights) or a personal access token
 * (`POST /api/tokens`, only its scopes). Every operation states one of:
 *
 * - `tokenRequired(scope)`: needs a token holding `scope` (401 `unauthorized` without a token);
 * - `tokenOptional(scope)`: anonymous, or with a token holding `scope` (a token makes the caller known);
 * - `PUBLIC`: the same answer for everyone; a token is neither needed nor checked for a scope.
 *
 * Plugin `auth` reads the scope back from the route (`routeScope`) and refuses a personal token without it
 * with 403 `missing-scope`; a sign-in token holds every scope, `account` included. A route that declares no
 * security at all (hidden routes) needs `account`: no personal token reaches it. Whatever an operation
 * declares, an unknown, revoked or expired token sent to any /api route is refused with 401 `unknown-token`.
 */
import { ACCOUNT_SCOPE, REQUIRED_SCOPES, type RequiredScope } from '@klondike/protocol';
import { ApiError } from '../errors.js';

/** Name of the bearer scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearerAuth';

/** The `components.securitySchemes` entry of the document. */
export const SECURITY_SCHEMES = {
  [BEARER_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A player token: the `token` of `POST /api/players` (shown once; full rights), or a personal access ' +
      'token of `POST /api/tokens` (only its scopes). Sent as `Authorization: Bearer <token>`. Each ' +
      "operation's requirement names the one scope it needs: `read`, `game:play`, `daily:play`, " +
      '`race:play`, `arena:play`, `puzzle:play`, `profile:write`, `report:write`, or `account` (the sign-in ' +
      'token only). A personal token without it gets 403 `missing-scope`.',
  },
} as const;

/** An OpenAPI security requirement list (`[]`: none; `{}` inside it: anonymous allowed). */
export type SecurityRequirements = Record<string, string[]>[];

/** The operation needs a token holding `scope` (401 `unauthorized` without a token). */
export function tokenRequired(scope: RequiredScope): SecurityRequirements {
  return [{ [BEARER_SCHEME]: [scope] }];
}

/** Anonymous or with a token holding `scope`: a token makes the caller known (their games, their results). */
export function tokenOptional(scope: RequiredScope): SecurityRequirements {
  return [{}, { [BEARER_SCHEME]: [scope] }];
}

/** Public: the answer is the same for everyone, no token is needed or used. */
export const PUBLIC: SecurityRequirements = [];

/**
 * The scope a route's declared security (`schema.security`) needs from a personal token: null for a public
 * route (an empty list), the bearer requirement's scope otherwise, `account` when the route declares none
 * (or something unreadable: fail closed).
 */
export function routeScope(security: unknown): RequiredScope | null {
  if (!Array.isArray(security)) return ACCOUNT_SCOPE;
  if (security.length === 0) return null;
  for (const requirement of security as unknown[]) {
    if (typeof requirement !== 'object' || requirement === null) continue;
    const scopes = (requirement as Record<string, unknown>)[BEARER_SCHEME];
    if (!Array.isArray(scopes)) continue;
    const scope: unknown = scopes[0];
    if (scopes.length === 1 && REQUIRED_SCOPES.includes(scope as RequiredScope))
      return scope as RequiredScope;
  }
  return ACCOUNT_SCOPE;
}

/**
 * Refuses an action that needs `scope` when `scopes` (a personal token's; null or undefined: a sign-in
 * token, every scope) lacks it. Errors: `missing-scope` naming the scope.
 */
export function checkScope(scopes: ReadonlySet<string> | null | undefined, scope: RequiredScope): void {
  if (scopes === null || scopes === undefined || scopes.has(scope)) return;
  throw new ApiError(
    'missing-scope',
    scope === ACCOUNT_SCOPE
      ? 'this needs the account’s sign-in token: a personal access token cannot do it'
      : `this token lacks the scope "${scope}"`,
  );
}
