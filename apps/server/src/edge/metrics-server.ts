/**
 * The metrics listener (issue 58): a small HTTP server of its own on METRICS_PORT that answers
 * `GET /metrics` with the app's registry in Prometheus's text format, and 404 to anything else. main.ts
 * starts it when METRICS_PORT is set; the public port never serves metrics (its `/metrics` is an unknown
 * path). Keep the port off the internet: it is for Prometheus, inside the deployment's network.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** A running metrics listener. */
export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  readonly port: number;
  /** Stops listening. */
  close(): Promise<void>;
}

/** Starts the metrics listener of `app` on `host:port`. Errors: rejects when the port cannot be bound. */
export async function startMetricsServer(
  app: FastifyInstance,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    app.metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': app.metrics.contentType }).end(text),
      (err: unknown) => {
        app.log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
