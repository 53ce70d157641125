/**
 * A TCP proxy for fault tests: the server talks to Postgres through it, and the test cuts the line
 * (every open connection reset, new ones refused) and restores it, as a database outage looks to the server.
 */
import { type Server, type Socket, createConnection, createServer } from 'node:net';

/** A proxy on 127.0.0.1 forwarding to `target`. */
export interface TcpProxy {
  /** The local port to connect to instead of the target's. */
  readonly port: number;
  /** Cuts the line: resets every open connection and refuses new ones until `restore`. */
  cut(): void;
  /** Accepts and forwards connections again. */
  restore(): void;
  /** Stops the proxy for good. */
  close(): Promise<void>;
}

/** Starts a proxy to `targetHost:targetPort` on a free local port. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ host: targetHost, port: targetPort });
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    cut() {
      down = true;
      for (const s of open) s.resetAndDestroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
