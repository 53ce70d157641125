/** Configuration from the environment: defaults, DATA_DIR resolution and refusals. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/edge/config.js';
import { INFRA_CONFIG, loadConfigSlices } from '../../src/infra/config.js';

describe('loadConfig', () => {
  it('defaults: PORT 3000, HOST 0.0.0.0, no DATABASE_URL, DATA_DIR ./.data from where the command started', () => {
    const c = loadConfig({ INIT_CWD: '/srv/klondike' });
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe('/srv/klondike/.data');
  });

  it('a relative DATA_DIR resolves against INIT_CWD; absolute paths and memory:// stay as given', () => {
    expect(loadConfig({ INIT_CWD: '/srv/k', DATA_DIR: 'db' }).dataDir).toBe('/srv/k/db');
    expect(loadConfig({ INIT_CWD: '/srv/k', DATA_DIR: '/var/lib/k' }).dataDir).toBe('/var/lib/k');
    expect(loadConfig({ DATA_DIR: 'memory://' }).dataDir).toBe('memory://');
  });

  it('DATABASE_URL and PORT are validated', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h:5432/d', PORT: '8080' })).toMatchObject({
      databaseUrl: 'postgresql://u@h:5432/d',
      port: 8080,
    });
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('REDIS_URL: unset or empty = one node alone; a redis:// URL; anything else refused', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://redis:6379' })).toMatchObject({
      redisUrl: 'redis://redis:6379',
      redisPrefix: 'klondike:',
      nodeHeartbeatMs: 5000,
    });
    expect(() => loadConfig({ REDIS_URL: 'http://redis:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ NODE_HEARTBEAT_MS: '10' })).toThrow(/NODE_HEARTBEAT_MS/);
  });

  it('METRICS_PORT: unset or empty = no metrics listener; a port taken; METRICS_HOST, SHUTDOWN_GRACE_MS', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(loadConfig({}).metricsHost).toBe('0.0.0.0');
    expect(loadConfig({}).shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '25000' }).shutdownGraceMs).toBe(25_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });

  it('COMMIT_CONCURRENCY: unset or empty = the database decides (null); 1…16 taken; anything else refused', () => {
    expect(loadConfig({}).commitConcurrency).toBeNull();
    expect(loadConfig({ COMMIT_CONCURRENCY: '' }).commitConcurrency).toBeNull();
    expect(loadConfig({ COMMIT_CONCURRENCY: '4' }).commitConcurrency).toBe(4);
    for (const bad of ['0', '17', '1.5', 'two'])
      expect(() => loadConfig({ COMMIT_CONCURRENCY: bad })).toThrow(/COMMIT_CONCURRENCY/);
  });

  it('ARENA_TICK_MS: unset or empty = 1000; 100…3600000 taken; anything else refused', () => {
    expect(loadConfig({}).arenaTickMs).toBe(1000);
    expect(loadConfig({ ARENA_TICK_MS: '' }).arenaTickMs).toBe(1000);
    expect(loadConfig({ ARENA_TICK_MS: '250' }).arenaTickMs).toBe(250);
    for (const bad of ['99', '3600001', '1.5', 'often'])
      expect(() => loadConfig({ ARENA_TICK_MS: bad })).toThrow(/ARENA_TICK_MS/);
  });
});

describe('configuration slices', () => {
  it('every setting comes from one slice: the infrastructure’s or a module’s', () => {
    expect(Object.keys(loadConfig({})).sort()).toEqual(
      [
        // infra/config.ts
        'port',
        'host',
        'databaseUrl',
        'redisUrl',
        'redisPrefix',
        'nodeHeartbeatMs',
        'dataDir',
        'logLevel',
        'trustProxy',
        'rateLimitMax',
        'rateLimitWindowMs',
        'botRateLimitMax',
        'wsFramesPerSecond',
        'wsMaxSubscriptions',
        'wsMaxAuthAttempts',
        'webDist',
        // infra/metrics/config.ts
        'metricsPort',
        'metricsHost',
        'shutdownGraceMs',
        // core/games/config.ts
        'maxLiveGames',
        'commitQueue',
        'commitConcurrency',
        // features/solve/config.ts
        'solverThreads',
        'solverBackgroundThreads',
        'solveMaxMs',
        'hintTimeMs',
        'solveRateMax',
        'winnableRateMax',
        'solverJobsPerClient',
        'solverQueue',
        'solverIdleMs',
        // features/daily/config.ts
        'dailySecret',
        'dailyArchiveDays',
        'dailySolveMs',
        'dailyTickMs',
        'dailyRolloverDelayMs',
        'dailySchedule',
        // features/arenas/config.ts
        'arenaPublicLimit',
        'arenaSchedule',
        'arenaTickMs',
        // features/players/config.ts
        'playerCreateRateMax',
        // features/moderation/config.ts
        'moderators',
        'reportRateMax',
        // features/maintenance/config.ts
        'gameRetentionDays',
        'maintenanceTickMs',
        'moveArchiveAfterMs',
        // features/signals/config.ts
        'signalsSweepMs',
        'signalsBatch',
        'signalsSolveNodes',
        // features/races/config.ts
        'raceLobbyTtlMs',
        'raceCountdownMs',
        'raceAwayForfeitMs',
        'raceRateMax',
        'raceCertifyMs',
        'ratedMinAccountAgeMs',
        'ratedMinFinishedGames',
        // features/review/config.ts
        'reviewVerdictMs',
        'reviewCache',
        'reviewPendingMax',
        // features/status/config.ts
        'statusOperatorToken',
        // features/streams/config.ts
        'streamKeepAliveMs',
        'streamMaxPerClient',
        'streamMaxBufferBytes',
        // features/puzzles/config.ts
        'puzzlesSweepMs',
        'puzzlesBatch',
        'puzzlesMaxUnseen',
        'puzzlesPerGame',
        'puzzlesSolveNodes',
        'puzzlesMaxSolves',
        'puzzlesMinimalNodes',
      ].sort(),
    );
  });

  it('the invalid variables of every slice are named in one error', () => {
    expect(() => loadConfig({ PORT: 'eighty', DAILY_TICK_MS: '5', RACE_COUNTDOWN_MS: '-1' })).toThrow(
      /^invalid configuration: PORT: .*DAILY_TICK_MS: .*RACE_COUNTDOWN_MS: /,
    );
  });

  it('two slices that give one field are refused', () => {
    expect(() => loadConfigSlices({}, [INFRA_CONFIG, INFRA_CONFIG])).toThrow(
      /configuration field port is given by two slices/,
    );
  });
});
