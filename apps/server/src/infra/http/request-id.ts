/**
 * Request ids (issue 58): every HTTP request carries an id that is logged with each of its log lines
 * (`reqId`) and echoed in the `X-Request-Id` response header, so that a request can be followed from nginx
 * to the node and between nodes. The id is the `X-Request-Id` header when the request came through a
 * trusted proxy (TRUST_PROXY: the socket's peer is a proxy we believe) and the header is well formed;
 * otherwise a fresh UUID. A client that is not a trusted proxy cannot choose its id (it could otherwise
 * forge another request's id to muddle the log).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** The header that carries a request's id, in and out. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id we keep: 1 to 128 characters of letters, digits and `._:-` (a UUID, nginx's hex id, …). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether `id` is a request id we keep as it is (else a new one replaces it). */
export function isValidRequestId(id: string): boolean {
  return REQUEST_ID.test(id);
}

/** The TRUST_PROXY setting (infra/config.ts `trustProxy`). */
export type TrustProxy = boolean | number | readonly string[];

/** Whether the socket's peer `address` is a proxy that TRUST_PROXY believes. */
function peerTrust(trust: TrustProxy): (address: string) => boolean {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  // A hop count: the nearest peer is the first of the proxies we believe.
  if (typeof trust === 'number') return () => trust > 0;
  const trusted = proxyAddr.compile([...trust]);
  return (address) => trusted(address, 0);
}

/**
 * Fastify's `genReqId` for TRUST_PROXY `trust`: the `X-Request-Id` header of a request from a trusted
 * proxy when it is well formed, else a random UUID. Never throws.
 */
export function requestIdGenerator(trust: TrustProxy): (req: IncomingMessage) => string {
  const trusted = peerTrust(trust);
  return (req) => {
    const header = req.headers[REQUEST_ID_HEADER];
    if (typeof header === 'string' && isValidRequestId(header)) {
      const peer = req.socket.remoteAddress;
      if (peer !== undefined && trusted(peer)) return header;
    }
    return randomUUID();
  };
}
