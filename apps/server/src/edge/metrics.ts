/**
 * The figures the edge gathers from the modules' public decorations once every plugin is registered
 * (issue 58; docs/operations.md "Metrics"): Redis, the leases this node holds, the daily job's state and the
 * live races. All are read at scrape time; none touches a request. The rooms (core/games/plugin.ts), the
 * solver (features/solve/plugin.ts), the pairing pools and the arenas register their own; the sockets'
 * are edge/socket.ts's, the HTTP requests' edge/plugins/metrics.ts's.
 */
import type { FastifyInstance } from 'fastify';
import { leasesOf } from '../infra/bus/lease.js';

/** Registers the edge's gauges on `app.metrics`. */
export function registerEdgeMetrics(app: FastifyInstance): void {
  const m = app.metrics;
  m.gauge('redis_connected', '1 while this node reaches Redis (or runs alone without one), else 0.', () =>
    app.bus.connected ? 1 : 0,
  );
  m.gauge('cluster_mode', '1 when the nodes share Redis (REDIS_URL set), 0 for one node alone.', () =>
    app.bus.kind === 'redis' ? 1 : 0,
  );
  m.gaugeByLabel('lease_held', '1 for each duty (lease) this node holds now, else 0.', 'lease', () =>
    [...leasesOf(app.bus)].map(([name, lease]) => [name, lease.held ? 1 : 0]),
  );
  m.gauge('daily_today_ready', "1 once today's dailies are stored (this node's knowledge), else 0.", () =>
    app.daily.status().todayReady ? 1 : 0,
  );
  m.gauge('daily_archive_pending', 'Archive dailies not yet stored (-1 before the fill first ran).', () => {
    return app.daily.status().archivePending ?? -1;
  });
  m.gauge('daily_par_pending', 'Par refinements of dailies under way or waiting.', () => {
    return app.daily.status().parPending;
  });
  m.gauge('daily_backfilling', '1 while the daily job fills the archive and refines pars, else 0.', () =>
    app.daily.status().backfilling ? 1 : 0,
  );
  m.gauge('races_live', "Unfinished races in this node's index.", () => app.races.liveCount);
}
