/**
 * How each REST operation declares its authentication in the OpenAPI document (`schema.security` of a route).
 * There is one scheme, `bearerAuth`: `Authorization: Bearer <token>` with a player token from
 * `POST /api/players` (plugin `auth` reads it). Every operation states one of the three below, so that
 * Swagger UI, generated clients and linters know whether to send the token.
 *
 * Whatever an operation declares, an unknown or revoked token sent to any /api route is refused with 401
 * `unknown-token` (plugin `auth`).
 */

/** Name of the bearer scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearerAuth';

/** The `components.securitySchemes` entry of the document. */
export const SECURITY_SCHEMES = {
  [BEARER_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A player token: the `token` of `POST /api/players` (shown once), sent as `Authorization: Bearer <token>`.',
  },
} as const;

/** An OpenAPI security requirement list (`[]`: none; `[{}]` inside it: anonymous allowed). */
export type SecurityRequirements = Record<string, string[]>[];

/** The operation needs a player token (401 `unauthorized` without one). */
export const TOKEN_REQUIRED: SecurityRequirements = [{ [BEARER_SCHEME]: [] }];

/** Anonymous or with a token: a token makes the caller known (their games, their own results). */
export const TOKEN_OPTIONAL: SecurityRequirements = [{}, { [BEARER_SCHEME]: [] }];

/** Public: the answer is the same for everyone, no token is needed or used. */
export const PUBLIC: SecurityRequirements = [];
