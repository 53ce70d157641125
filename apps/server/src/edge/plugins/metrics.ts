/**
 * Plugin `metrics`: decorates `app.metrics`, the app's Prometheus registry (infra/metrics/registry.ts),
 * enabled when METRICS_PORT is set. Enabled, it also times every HTTP request
 * (`klondike_http_request_duration_seconds` by method, route pattern and status; a path no route matches
 * counts as route `unmatched`, so label values stay bounded). The registry is served by the metrics
 * listener on its own port (edge/metrics-server.ts), never by the public port.
 */
import fp from 'fastify-plugin';
import { Metrics } from '../../infra/metrics/registry.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics registry (plugin `metrics`); `enabled` when METRICS_PORT is set. */
    metrics: Metrics;
  }
}

/** Bucket upper bounds of HTTP request durations, seconds. */
export const HTTP_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
];

/** Registers the metrics registry and, when enabled, the HTTP timing hook. */
export const metricsPlugin = fp(
  (app) => {
    const metrics = new Metrics(app.config.metricsPort !== undefined);
    app.decorate('metrics', metrics);
    if (metrics.enabled) {
      const http = metrics.histogram(
        'http_request_duration_seconds',
        'HTTP requests by method, route pattern and status code, seconds from arrival to response.',
        ['method', 'route', 'status_code'],
        HTTP_DURATION_BUCKETS,
      );
      app.addHook('onResponse', (req, reply, done) => {
        http.observe(
          {
            method: req.method,
            route: req.routeOptions.url ?? 'unmatched',
            status_code: String(reply.statusCode),
          },
          reply.elapsedTime / 1000,
        );
        done();
      });
    }
    return Promise.resolve();
  },
  { name: 'metrics', fastify: '5.x', dependencies: ['config'] },
);
