/**
 * Entry point: builds the server and listens on HOST:PORT (see config.ts), and on METRICS_PORT the metrics
 * listener when it is set (edge/metrics-server.ts). SIGINT/SIGTERM (and an uncaught error) stop it
 * gracefully with a deadline (close-with-grace; SHUTDOWN_GRACE_MS): new requests are refused, queued writes
 * finish, sockets close, the database closes; past the deadline the process exits with code 1 anyway, so
 * that an orchestrator's stop (compose's `stop_grace_period`) never has to kill a node mid-write.
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { type MetricsServer, startMetricsServer } from './edge/metrics-server.js';

const app = await buildApp();
let metrics: MetricsServer | undefined;
closeWithGrace({ delay: app.config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'stopping after an uncaught error');
  app.log.info({ signal, graceMs: app.config.shutdownGraceMs }, 'shutting down');
  await metrics?.close();
  await app.close();
  app.log.info('stopped');
});
// The listen queue (Node's default 511): at midnight thousands of players connect in the same second, and a
// full queue drops their SYNs, each costing its client a second or more. The kernel caps it at somaxconn.
await app.listen({ port: app.config.port, host: app.config.host, backlog: 4096 });
if (app.config.metricsPort !== undefined) {
  metrics = await startMetricsServer(app, app.config.metricsPort, app.config.metricsHost);
  app.log.info({ port: metrics.port }, 'metrics listening');
}
