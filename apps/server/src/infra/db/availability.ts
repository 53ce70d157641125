/**
 * Telling "the database is unreachable" apart from every other failure, so that a request which needs the
 * database while it is away is answered 503 `unavailable` with Retry-After (the client waits and retries)
 * instead of 500 `internal` (a bug).
 */

/** Prisma error codes that mean the database cannot be reached or the connection was lost. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver adapter error kinds of the same meaning (Prisma 7's `meta.driverAdapterError.cause.kind`). */
const ADAPTER_KINDS = new Set([
  'ConnectionClosed',
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'SocketTimeout',
  'TooManyConnections',
  'TlsConnectionError',
  'AuthenticationFailed',
]);
/** Node socket error codes and Postgres SQLSTATEs (class 08 connection exceptions, 57P0x shutdown). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const SQLSTATE = /^(08\d{3}|57P0[1-3]|53300)$/;
/** Messages of node-postgres and Prisma for a lost or refused connection. */
const MESSAGES =
  /Connection terminated|Server has closed the connection|Can't reach database server|connect ECONNREFUSED/i;

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * True when `error` (or an error it wraps, through `cause` or Prisma's driver-adapter metadata) says the
 * database is unreachable: refused or lost connections, timeouts getting a connection, a server shutting
 * down. Constraint violations, serialisation failures and bugs are not.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e !== undefined && e !== null; depth++) {
    const code = field(e, 'code');
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code)))
      return true;
    const kind = field(field(field(field(e, 'meta'), 'driverAdapterError'), 'cause'), 'kind');
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    const adapterKind = field(field(e, 'cause'), 'kind');
    if (typeof adapterKind === 'string' && ADAPTER_KINDS.has(adapterKind)) return true;
    const message = field(e, 'message');
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = field(e, 'cause');
  }
  return false;
}

/** Seconds a client should wait before retrying while the database is away (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;
