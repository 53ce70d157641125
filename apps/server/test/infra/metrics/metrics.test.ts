/**
 * Issue 58, metrics: the metrics listener answers `/metrics` in Prometheus's text format (read with a
 * parser library, not a regex), holding every figure the issue lists; a game's moves move them (the
 * committed counter and the commit latency histogram's count go up); the public port never serves them.
 */
import { GameResponseSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import type { MetricValueWithName } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetricsServer, startMetricsServer } from '../../../src/edge/metrics-server.js';
import { WsClient, pgliteDatabase, testApp, wsUrl } from '../../support/helpers.js';

/** Scrapes `port` and parses the answer. */
async function scrape(port: number): Promise<Map<string, MetricFamily>> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text());
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of `name`'s sample whose labels include `labels` (the only sample when none are given). */
function value(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name);
  if (family === undefined) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (sample === undefined) throw new Error(`no sample of ${name} with ${JSON.stringify(labels)}`);
  return Number(sample.count ?? sample.value);
}

describe('metrics listener', () => {
  let app: FastifyInstance;
  let server: MetricsServer;

  beforeAll(async () => {
    app = await testApp(pgliteDatabase(), { config: { metricsPort: 0 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = await startMetricsServer(app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('holds every figure of the issue, with Prometheus types, and Node process metrics', async () => {
    const m = await scrape(server.port);
    const expected: Record<string, MetricFamily['type']> = {
      klondike_http_request_duration_seconds: 'HISTOGRAM',
      klondike_websocket_connections: 'GAUGE',
      klondike_websocket_frames_received_total: 'COUNTER',
      klondike_websocket_frames_sent_total: 'COUNTER',
      klondike_moves_committed_total: 'COUNTER',
      klondike_move_commit_duration_seconds: 'HISTOGRAM',
      klondike_commit_queue_depth: 'GAUGE',
      klondike_commit_queue_limit: 'GAUGE',
      klondike_overloaded_refusals_total: 'COUNTER',
      klondike_live_rooms: 'GAUGE',
      klondike_solver_jobs_queued: 'GAUGE',
      klondike_solver_jobs_running: 'GAUGE',
      klondike_solver_job_wait_seconds: 'HISTOGRAM',
      klondike_redis_connected: 'GAUGE',
      klondike_lease_held: 'GAUGE',
      klondike_daily_today_ready: 'GAUGE',
      klondike_daily_archive_pending: 'GAUGE',
      klondike_pairing_pool_players: 'GAUGE',
      klondike_arenas: 'GAUGE',
      klondike_races_live: 'GAUGE',
      klondike_streams_open: 'GAUGE',
      process_cpu_seconds_total: 'COUNTER',
      nodejs_eventloop_lag_seconds: 'GAUGE',
    };
    for (const [name, type] of Object.entries(expected)) expect(m.get(name)?.type, name).toBe(type);
    expect(value(m, 'klondike_commit_queue_limit')).toBe(app.config.commitQueue);
    expect(value(m, 'klondike_solver_jobs_queued', { lane: 'interactive' })).toBe(0);
    expect(value(m, 'klondike_pairing_pool_players', { preset: 'classic-draw1' })).toBe(0);
    expect(value(m, 'klondike_lease_held', { lease: 'race-sweeper' })).toBe(1);
    expect(value(m, 'klondike_redis_connected')).toBe(1);
  });

  it("a game's moves raise the committed counter, the latency histogram's count and the frame counters", async () => {
    const before = await scrape(server.port);
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 7 } });
    const { id, version } = GameResponseSchema.parse(created.json());
    // Two moves over REST, two over the socket.
    let v = version;
    for (let i = 0; i < 2; i++) {
      const r = await app.inject({
        method: 'POST',
        url: `/api/games/${id}/moves`,
        payload: { move: { type: 'draw' }, version: v },
      });
      expect(r.statusCode).toBe(200);
      v = r.json<{ version: number }>().version;
    }
    const socket = await WsClient.connect(wsUrl(app));
    try {
      await socket.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state');
      for (let i = 0; i < 2; i++) {
        await socket.request(
          { type: 'move', gameId: id, version: v, move: { type: 'draw' } },
          (f) => f.type === 'state' && f.version === v + 1,
        );
        v++;
      }
      const after = await scrape(server.port);
      const grew = (name: string, labels?: Record<string, string>) =>
        value(after, name, labels) - value(before, name, labels);
      expect(grew('klondike_moves_committed_total')).toBe(4);
      expect(grew('klondike_move_commit_duration_seconds')).toBe(4);
      expect(grew('klondike_websocket_frames_received_total')).toBeGreaterThanOrEqual(3);
      expect(grew('klondike_websocket_frames_sent_total')).toBeGreaterThanOrEqual(3);
      expect(value(after, 'klondike_websocket_connections')).toBe(1);
      expect(value(after, 'klondike_live_rooms')).toBeGreaterThanOrEqual(1);
      // HTTP durations are labelled by route pattern, not by URL (the game id is no label value). The parser
      // folds a labelled histogram's series into one, so its labels are read from the registry itself.
      const http = (await app.metrics.registry.getMetricsAsJSON()).find(
        (f) => f.name === 'klondike_http_request_duration_seconds',
      );
      const values = (http?.values ?? []) as MetricValueWithName<string>[];
      const moves = values.find(
        (s) =>
          s.metricName === 'klondike_http_request_duration_seconds_count' &&
          s.labels.route === '/api/games/:id/moves' &&
          s.labels.status_code === '200' &&
          s.labels.method === 'POST',
      );
      expect(moves?.value).toBeGreaterThanOrEqual(2);
      const routes = values.map((s) => String(s.labels.route ?? ''));
      expect(routes.some((r) => r.includes(id))).toBe(false);
    } finally {
      socket.close();
    }
  });

  it('a client inventing URLs adds no series: unknown paths count as route `unmatched`', async () => {
    const series = async () =>
      ((await app.metrics.registry.getMetricsAsJSON()).find(
        (f) => f.name === 'klondike_http_request_duration_seconds',
      )?.values ?? []) as MetricValueWithName<string>[];
    for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: `/api/invented-${i}/x${i}` });
    const after = await series();
    const routes = new Set(after.map((s) => String(s.labels.route)));
    expect(routes.has('unmatched')).toBe(true);
    expect([...routes].some((r) => r.includes('invented'))).toBe(false);
    const unmatched = after.find(
      (s) =>
        s.metricName === 'klondike_http_request_duration_seconds_count' && s.labels.route === 'unmatched',
    );
    expect(unmatched?.value).toBeGreaterThanOrEqual(20);
  });

  it('answers 404 to any other path of the metrics port', async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/api/health`)).status).toBe(404);
  });

  it('the public port never serves the metrics', async () => {
    const r = await app.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('klondike_');
  });
});

describe('metrics off (METRICS_PORT unset)', () => {
  it('no hot-path histogram is fed and the public port still answers 404 for /metrics', async () => {
    const app = await testApp(pgliteDatabase());
    try {
      expect(app.metrics.enabled).toBe(false);
      const text = await app.metrics.text();
      expect(text).not.toContain('klondike_move_commit_duration_seconds');
      expect(text).not.toContain('process_cpu_seconds_total');
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
