/**
 * Plugin `daily`: decorates `app.daily` (daily/service.ts) and runs its schedule. At start-up it begins
 * making today's and tomorrow's dailies ready (daily routes wait for that) and then fills the archive in
 * the background. A timer runs `tick()` every `dailyTickMs` and just after each UTC midnight's rollover delay
 * (`dailyRolloverDelayMs`: not during the minutes when every daily player opens the new day; nothing of the
 * timer's runs then), so the next day is always stored a day before it opens and closed days are settled.
 * With the timer on, a request never starts that work (daily/schedule.ts `todayReady`). With several nodes the timer's work runs
 * on one node only: the holder of the `daily-job` lease (bus/lease.ts); another node takes the duty within
 * three heartbeats of the holder's death. Each run first keeps the move log's partitions (maintenance/partitions.ts:
 * the coming days created ahead, the empty past days dropped). After each run it rates the closed days it settled (plugin `ratings`;
 * a day is rated once, whichever node gets there first). Every node still makes today's dailies ready at start-up (reading
 * what is stored; generation is idempotent). The timer is cleared and generation stopped when the server closes. With `dailySchedule` off (tests) neither runs: the daily routes still
 * prepare what they need on first use.
 */
import fp from 'fastify-plugin';
import { DAY_MS } from '../../infra/dates.js';
import { clusterLease } from '../../infra/bus/lease.js';
import { DailyService } from './service.js';
import { DailyRepository } from './repository.js';
import { ExportRepository } from './export-repository.js';
import { FairnessRepository } from '../fairness/repository.js';
import { maintainPartitions } from '../maintenance/partitions.js';
import { PartitionRepository } from '../maintenance/partition-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Daily deals, their schedule and leaderboards (plugin `daily`). */
    daily: DailyService;
    /** More work of the daily job's lease holder, run after each daily run (plugin `daily`). */
    dailyJobs: Set<() => Promise<unknown>>;
  }
}

/** Registers the daily service and its timer. */
export const dailyPlugin = fp(
  (app) => {
    const daily = new DailyService({
      repository: new DailyRepository(app.prisma),
      exports: new ExportRepository(app.prisma),
      fairness: new FairnessRepository(app.prisma),
      rooms: app.rooms,
      solver: app.solver,
      now: app.now,
      log: app.log,
      secret: app.config.dailySecret,
      archiveDays: app.config.dailyArchiveDays,
      solveMs: app.config.dailySolveMs,
      rolloverOnFirstUse: !app.config.dailySchedule,
      bus: app.bus,
    });
    app.decorate('daily', daily);
    /** More work of the daily job's lease holder (e.g. the arena schedule), run after each daily run. */
    const jobs = new Set<() => Promise<unknown>>();
    app.decorate('dailyJobs', jobs);
    const runJobs = async (): Promise<void> => {
      for (const job of jobs) await job();
    };

    const partitions = new PartitionRepository(app.prisma);
    const lease = clusterLease(app.bus, app.config.redisPrefix, 'daily-job', 3 * app.config.nodeHeartbeatMs);
    let timer: NodeJS.Timeout | undefined;
    let closing = false;
    const delay = app.config.dailyRolloverDelayMs;
    /** The timer's next run: the next tick, or just after the next midnight's rollover delay if sooner. */
    const schedule = (wait?: number): void => {
      if (closing) return;
      const untilRollover = DAY_MS - (app.now() % DAY_MS) + delay + 50;
      timer = setTimeout(run, wait ?? Math.max(1000, Math.min(app.config.dailyTickMs, untilRollover)));
      timer.unref();
    };
    const run = (): void => {
      if (!lease.held) {
        schedule(); // another node runs the daily job
        return;
      }
      // Within the rollover delay after midnight nothing runs: the new day's players are opening it.
      const sinceMidnight = app.now() % DAY_MS;
      if (sinceMidnight < delay) {
        schedule(Math.min(app.config.dailyTickMs, delay - sinceMidnight + 50));
        return;
      }
      // The move log's partitions first: their upkeep does not wait on a daily that fails to generate.
      maintainPartitions(partitions, app.now(), (name, err) =>
        app.log.warn({ err, partition: name }, 'move log partition upkeep failed; retrying at the next run'),
      )
        .then((r) => {
          if (r.created.length > 0 || r.dropped.length > 0) app.log.info(r, 'move log partitions');
        })
        .catch((err: unknown) => app.log.warn({ err }, 'move log partition upkeep failed'))
        .then(() => daily.tick())
        .then(() => app.ratings.rateClosedDays())
        .then(runJobs)
        .then(
          () => schedule(),
          (err: unknown) => {
            if (!closing) app.log.error({ err }, 'daily schedule failed');
            schedule();
          },
        );
    };
    app.addHook('onReady', () => {
      if (!app.config.dailySchedule) return Promise.resolve();
      daily
        .current()
        .then(() => app.ratings.rateClosedDays())
        .catch((err: unknown) => app.log.error({ err }, 'daily start-up failed'));
      lease.start((held) => {
        if (!held) return;
        app.log.info('this node runs the daily job');
        runJobs().catch((err: unknown) => app.log.error({ err }, 'daily job failed'));
      });
      schedule();
      return Promise.resolve();
    });
    app.addHook('preClose', async () => {
      closing = true;
      if (timer) clearTimeout(timer);
      await lease.stop();
      await daily.stop();
    });
    return Promise.resolve();
  },
  { name: 'daily', fastify: '5.x', dependencies: ['config', 'db', 'bus', 'game-rooms', 'solver', 'ratings'] },
);
