/**
 * The benchmarks' HTTP client: node's own `http.request` over one keep-alive agent with no socket limit (one
 * connection per simulated player, as many browsers would have). It costs the load generator, which shares
 * the box's cores with what it measures, a fraction of what `fetch` (undici, WHATWG streams) costs a request.
 */
import { Agent, request } from 'node:http';

/** What one request answered: the status, the headers and the body as text. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** One connection per player: no limit on the agent's sockets, each kept open between requests. */
export const benchAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * One request to `base` + `path` (`base`: `http://host:port`), with `Authorization: Bearer <token>` when a
 * token is given and `body` sent as JSON when given. Resolves with whatever was answered (any status);
 * rejects when the connection failed or was cut.
 */
export function httpCall(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: benchAgent,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
