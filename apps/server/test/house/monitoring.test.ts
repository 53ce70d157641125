/**
 * Issue 58, the monitoring deployment: the compose `monitoring` profile runs Prometheus and Grafana on this
 * machine's loopback only; every node has a metrics port (not published), a stop grace period longer than
 * its SHUTDOWN_GRACE_MS; Prometheus scrapes every node and loads the four alert rules, whose expressions name
 * metrics the server exports; the Grafana dashboard parses and every panel queries a known metric; nginx
 * gives each request an X-Request-Id. The files are parsed (YAML, JSON), not matched by regex; no promtool
 * exists as a library here, so the rules are checked by name and by the metrics they read.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const ROOT = resolve(import.meta.dirname, '../../../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

/** The metric families the server exports (test/infra/metrics/metrics.test.ts checks them on a scrape). */
const EXPORTED = [
  'klondike_http_request_duration_seconds',
  'klondike_websocket_connections',
  'klondike_websocket_frames_received_total',
  'klondike_websocket_frames_sent_total',
  'klondike_moves_committed_total',
  'klondike_move_commit_duration_seconds',
  'klondike_commit_queue_depth',
  'klondike_commit_queue_limit',
  'klondike_overloaded_refusals_total',
  'klondike_live_rooms',
  'klondike_races_live',
  'klondike_solver_jobs_queued',
  'klondike_solver_jobs_running',
  'klondike_solver_job_wait_seconds',
  'klondike_redis_connected',
  'klondike_cluster_mode',
  'klondike_lease_held',
  'klondike_daily_today_ready',
  'klondike_daily_archive_pending',
  'klondike_daily_par_pending',
  'klondike_daily_backfilling',
  'klondike_pairing_pool_players',
  'klondike_arenas',
  'klondike_streams_open',
];

/** The `klondike_` metric names an expression reads (a histogram's `_bucket`/`_count`/`_sum` → its family). */
function metricsOf(expr: string): string[] {
  return [...expr.matchAll(/\bklondike_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ''));
}

const Compose = z.object({
  'x-node': z.object({ environment: z.record(z.string(), z.string()), stop_grace_period: z.string() }),
  services: z.record(
    z.string(),
    z.object({
      profiles: z.array(z.string()).optional(),
      image: z.string().optional(),
      ports: z.array(z.string()).optional(),
      volumes: z.array(z.string()).optional(),
    }),
  ),
});

describe('compose profile monitoring', () => {
  const compose = Compose.parse(parse(read('docker-compose.yml'), { merge: true }));

  it('Prometheus and Grafana run in the profile, published on loopback only', () => {
    for (const name of ['prometheus', 'grafana']) {
      const s = compose.services[name];
      expect(s?.profiles).toEqual(['monitoring']);
      expect(s?.ports?.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
    }
    expect(compose.services.prometheus?.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
  });

  it('each node exposes METRICS_PORT on the network only and gets longer to stop than its grace', () => {
    const node = compose['x-node'];
    expect(node.environment.METRICS_PORT).toBe('9464');
    const graceMs = Number(node.environment.SHUTDOWN_GRACE_MS);
    const stop = /^(\d+)s$/.exec(node.stop_grace_period);
    expect(Number(stop?.[1]) * 1000).toBeGreaterThan(graceMs);
    for (const name of ['app', 'app2']) expect(compose.services[name]?.ports).toBeUndefined();
  });
});

describe('deploy/prometheus', () => {
  const config = z
    .object({
      rule_files: z.array(z.string()),
      scrape_configs: z.array(
        z.object({
          job_name: z.string(),
          metrics_path: z.string().optional(),
          dns_sd_configs: z.array(z.object({ names: z.array(z.string()), port: z.number() })).optional(),
        }),
      ),
    })
    .parse(parse(read('deploy/prometheus/prometheus.yml')));
  const rules = z
    .object({
      groups: z.array(
        z.object({
          name: z.string(),
          rules: z.array(
            z.object({
              alert: z.string(),
              expr: z.string(),
              for: z.string(),
              labels: z.object({ severity: z.string() }),
            }),
          ),
        }),
      ),
    })
    .parse(parse(read('deploy/prometheus/alerts.yml')));

  it('scrapes every node of both compose setups on METRICS_PORT and loads the alert rules', () => {
    const job = config.scrape_configs.find((j) => j.job_name === 'klondike');
    expect(job?.metrics_path).toBe('/metrics');
    expect(job?.dns_sd_configs?.[0]).toMatchObject({ names: ['app', 'app2'], port: 9464 });
    expect(config.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
  });

  it('the four alerts of the issue, each reading metrics the server exports, each documented', () => {
    const all = rules.groups.flatMap((g) => g.rules);
    expect(all.map((r) => r.alert)).toEqual([
      'KlondikeNodeDown',
      'KlondikeCommitQueueFull',
      'KlondikeMoveLatencyHigh',
      'KlondikeRedisDown',
    ]);
    for (const r of all) for (const m of metricsOf(r.expr)) expect(EXPORTED, `${r.alert}: ${m}`).toContain(m);
    const doc = read('docs/operations.md');
    for (const r of all) expect(doc, r.alert).toContain(`### ${r.alert}`);
  });
});

describe('deploy/grafana', () => {
  it('the dashboard parses and every panel queries metrics the server exports (or Node process metrics)', () => {
    const dashboard = z
      .object({
        uid: z.string(),
        panels: z.array(
          z.object({ title: z.string(), targets: z.array(z.object({ expr: z.string() })).min(1) }),
        ),
      })
      .parse(JSON.parse(read('deploy/grafana/dashboards/klondike.json')));
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const p of dashboard.panels)
      for (const t of p.targets) {
        for (const m of metricsOf(t.expr)) expect(EXPORTED, `${p.title}: ${m}`).toContain(m);
        expect(t.expr).toMatch(/klondike_|nodejs_|process_/);
      }
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join(' | ');
    for (const word of [
      'commit queue',
      'latency',
      'websocket',
      'solver',
      'redis',
      'lease',
      'daily',
      'pairing',
      'arenas',
    ])
      expect(titles).toContain(word);
  });

  it('Grafana is provisioned with the Prometheus data source and the dashboards folder', () => {
    const ds = parse(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as {
      datasources: { uid: string; url: string }[];
    };
    expect(ds.datasources[0]).toMatchObject({ uid: 'prometheus', url: 'http://prometheus:9090' });
    const dashboards = parse(read('deploy/grafana/provisioning/dashboards/klondike.yml')) as {
      providers: { options: { path: string } }[];
    };
    expect(dashboards.providers[0]?.options.path).toBe('/var/lib/grafana/dashboards');
  });
});

describe('deploy/nginx.conf request ids', () => {
  it('sends its own $request_id to the node as X-Request-Id and logs it', () => {
    const conf = read('deploy/nginx.conf');
    expect(conf).toContain('proxy_set_header X-Request-Id $request_id;');
    expect(conf).toMatch(/log_format klondike[^;]*request_id=\$request_id/);
  });
});
