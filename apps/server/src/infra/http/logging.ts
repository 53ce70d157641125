/**
 * What the request log may hold. Fastify logs every request's URL; a player token in a query string (an old
 * transfer link, a client that puts it there by mistake) or in a header must never reach the log.
 */

/** Query parameter names whose values are always secret. */
const SECRET_NAMES = /token|secret|key|code|auth|pass|session|sig/i;
/** A value that looks like a credential whatever its name: 20+ characters of base64url/hex. */
const TOKEN_LIKE = /^[A-Za-z0-9_\-+/=.]{20,}$/;

/** The text that replaces a secret. */
export const REDACTED = '[redacted]';

/**
 * `url` (a request target such as `/api/x?token=abc`) with the value of every secret-looking query parameter
 * replaced by `[redacted]`: secret names (token, code, key, …) and token-like values (20+ base64url chars).
 * The path is kept as it is (ids in paths are not secrets).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = url.slice(0, q);
  const query = url.slice(q + 1);
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    let value = pair.slice(eq + 1);
    try {
      value = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      /* keep the raw text */
    }
    return SECRET_NAMES.test(name) || TOKEN_LIKE.test(value) ? `${name}=${REDACTED}` : pair;
  });
  return `${path}?${parts.join('&')}`;
}

/** The shape of a request Fastify's serializer receives (the parts we log). */
interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly hostname?: string;
  readonly ip?: string;
  readonly socket?: { readonly remotePort?: number };
}

/**
 * pino serializers of the server's logger: requests are logged with a redacted URL and no headers (so no
 * `Authorization`), as Fastify's default serializer does otherwise.
 */
export const logSerializers = {
  req(req: LoggedRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      host: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

/** pino `redact` paths: a header or body that is logged whole still loses its secrets. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'token',
  '*.token',
];
