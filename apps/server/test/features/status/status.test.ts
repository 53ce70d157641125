/**
 * Issue 58, the status page: `GET /api/status` judges each part from the node's figures (assess.ts, tried
 * part by part), and lists the incidents the operator records with the incident command. A player cannot
 * record one: the command runs on the operator's machine only, and the public route only reads.
 */
import { IncidentSchema, StatusResponseSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type StatusFigures, assessStatus } from '../../../src/features/status/assess.js';
import { IncidentUsageError, runIncidentCommand } from '../../../src/features/status/incident-command.js';
import { StatusRepository } from '../../../src/features/status/repository.js';
import { CACHE_MS, RESOLVED_SHOWN_MS } from '../../../src/features/status/service.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

const HEALTHY: StatusFigures = {
  database: true,
  commitQueue: { depth: 0, bound: 256 },
  recentRefusals: 0,
  dailyReady: true,
  clustered: true,
  redis: true,
  solverFailed: false,
  solverBusy: false,
};

describe('assessStatus', () => {
  it('every part up when every figure is healthy', () => {
    const s = assessStatus(HEALTHY);
    expect(s.status).toBe('up');
    expect(Object.values(s.parts).every((p) => p.level === 'up' && p.reason === null)).toBe(true);
  });

  it('the database away: moves, daily and races down, the whole status down', () => {
    const s = assessStatus({ ...HEALTHY, database: false });
    expect(s.status).toBe('down');
    expect(s.parts.moves).toEqual({ level: 'down', reason: 'database' });
    expect(s.parts.daily.level).toBe('down');
    expect(s.parts.races.level).toBe('down');
  });

  it('moves degraded by recent `overloaded` refusals or a nearly full commit queue', () => {
    expect(assessStatus({ ...HEALTHY, recentRefusals: 3 }).parts.moves).toEqual({
      level: 'degraded',
      reason: 'overloaded',
    });
    expect(assessStatus({ ...HEALTHY, commitQueue: { depth: 210, bound: 256 } }).parts.moves.reason).toBe(
      'commit-queue',
    );
    expect(assessStatus({ ...HEALTHY, commitQueue: { depth: 100, bound: 256 } }).parts.moves.level).toBe(
      'up',
    );
  });

  it('Redis away degrades the cluster and races, not a node alone', () => {
    const away = assessStatus({ ...HEALTHY, redis: false });
    expect(away.status).toBe('degraded');
    expect(away.parts.cluster).toEqual({ level: 'degraded', reason: 'redis' });
    expect(away.parts.races.reason).toBe('redis');
    expect(away.parts.moves.level).toBe('up');
    expect(assessStatus({ ...HEALTHY, clustered: false, redis: true }).status).toBe('up');
  });

  it('the solver: failed threads are down, a full queue degraded; the daily not ready is degraded', () => {
    expect(assessStatus({ ...HEALTHY, solverFailed: true }).parts.solver.level).toBe('down');
    expect(assessStatus({ ...HEALTHY, solverBusy: true }).parts.solver.reason).toBe('solver-busy');
    expect(assessStatus({ ...HEALTHY, dailyReady: false }).parts.daily.reason).toBe('daily-pending');
  });
});

describeEachDatabase('GET /api/status and the incident command', (db) => {
  it('answers the schema for anyone; incidents recorded by the command appear, resolved ones age out', async () => {
    let now = Date.parse('2026-12-06T10:00:00Z');
    const app = await testApp(db, { now: () => now });
    try {
      const first = await app.inject({ method: 'GET', url: '/api/status' });
      expect(first.statusCode).toBe(200);
      const status = StatusResponseSchema.parse(first.json());
      expect(status.parts.moves).toEqual({ level: 'up', reason: null });
      expect(status.parts.cluster.level).toBe('up');
      expect(status.parts.solver.level).toBe('up');
      expect(status.nodes).toBe(1);
      expect(status.incidents).toEqual([]);

      const repository = new StatusRepository(app.prisma);
      const lines: string[] = [];
      const run = (...args: string[]) =>
        runIncidentCommand(
          args,
          repository,
          () => now,
          (l) => lines.push(l),
        );
      await run(
        'add',
        'Moves',
        'slow',
        'on',
        'one',
        'node',
        '--impact',
        'major',
        '--details',
        'Looking into it',
      );
      const id = (lines[0] ?? '').split(/\s+/)[0] ?? '';
      expect(lines[0]).toContain('OPEN  major');
      now += 60_000;
      await run('add', 'Daily late');

      // The answer is kept CACHE_MS: the incidents show on the next read after it.
      now += CACHE_MS;
      const listed = StatusResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/status' })).json(),
      );
      expect(listed.incidents.map((i) => i.title)).toEqual(['Daily late', 'Moves slow on one node']);
      expect(listed.incidents[1]).toMatchObject({
        id,
        impact: 'major',
        details: 'Looking into it',
        resolvedAt: null,
      });

      await run('resolve', id);
      now += CACHE_MS;
      const resolved = StatusResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/status' })).json(),
      );
      // Open ones first, then the resolved.
      expect(resolved.incidents.map((i) => [i.title, i.resolvedAt !== null])).toEqual([
        ['Daily late', false],
        ['Moves slow on one node', true],
      ]);
      now += RESOLVED_SHOWN_MS + CACHE_MS;
      const later = StatusResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/status' })).json(),
      );
      expect(later.incidents.map((i) => i.title)).toEqual(['Daily late']);

      lines.length = 0;
      await run('list');
      expect(lines).toHaveLength(2);
      await expect(run('resolve', 'no-such-incident')).rejects.toBeInstanceOf(IncidentUsageError);
      await expect(run('add', 'x', '--impact', 'apocalyptic')).rejects.toBeInstanceOf(IncidentUsageError);
      await expect(run('add')).rejects.toBeInstanceOf(IncidentUsageError);
      await expect(run('drop')).rejects.toBeInstanceOf(IncidentUsageError);
    } finally {
      await app.close();
      await db.cleanup();
    }
  });

  it('the public API has no way to write an incident', async () => {
    const app = await testApp(db);
    try {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const r = await app.inject({ method, url: '/api/status', payload: { title: 'fake outage' } });
        expect(r.statusCode).toBeGreaterThanOrEqual(400);
      }
      expect(await new StatusRepository(app.prisma).incidents()).toEqual([]);
    } finally {
      await app.close();
      await db.cleanup();
    }
  });
});

describeEachDatabase("the operator's incident routes (STATUS_OPERATOR_TOKEN)", (db) => {
  const TOKEN = 'operator-token-0123456789abcdef-0123456789';
  const post = (app: FastifyInstance, url: string, token: string | undefined, payload: object = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      headers: token === undefined ? {} : { 'x-operator-token': token },
    });

  it('with the token: records and resolves; the page lists it', async () => {
    const app = await testApp(db, { config: { statusOperatorToken: TOKEN } });
    try {
      const made = await post(app, '/api/status/incidents', TOKEN, { title: 'Daily late', impact: 'major' });
      expect(made.statusCode, made.body).toBe(201);
      const incident = IncidentSchema.parse(made.json());
      expect(incident).toMatchObject({
        title: 'Daily late',
        impact: 'major',
        details: null,
        resolvedAt: null,
      });
      const resolved = await post(app, `/api/status/incidents/${incident.id}/resolve`, TOKEN);
      expect(resolved.statusCode, resolved.body).toBe(200);
      expect(IncidentSchema.parse(resolved.json()).resolvedAt).not.toBeNull();
      const status = StatusResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/status' })).json(),
      );
      expect(status.incidents.map((i) => i.id)).toEqual([incident.id]);
      expect((await post(app, '/api/status/incidents/nope/resolve', TOKEN)).statusCode).toBe(404);
    } finally {
      await app.close();
      await db.cleanup();
    }
  });

  it('a player without the token (none, wrong, a player token, or the setting unset) gets 404 and writes nothing', async () => {
    for (const configured of [TOKEN, undefined]) {
      const app = await testApp(db, { config: { statusOperatorToken: configured } });
      try {
        const player = await app.inject({
          method: 'POST',
          url: '/api/players',
          payload: { name: 'Mallory' },
        });
        const bearer = player.json<{ token: string }>().token;
        for (const token of [
          undefined,
          'x'.repeat(40),
          TOKEN.slice(0, -1),
          bearer,
          ...(configured ? [] : [TOKEN]),
        ]) {
          const r = await post(app, '/api/status/incidents', token, { title: 'Fake outage' });
          expect(r.statusCode, `${String(token)}: ${r.body}`).toBe(404);
          // Not even the body's validation answers: a bad body looks the same as a good one.
          expect((await post(app, '/api/status/incidents', token, { nonsense: 1 })).statusCode).toBe(404);
        }
        const withBearer = await app.inject({
          method: 'POST',
          url: '/api/status/incidents',
          payload: { title: 'Fake outage' },
          headers: { authorization: `Bearer ${bearer}` },
        });
        expect(withBearer.statusCode).toBe(404);
        expect(await new StatusRepository(app.prisma).incidents()).toEqual([]);
      } finally {
        await app.close();
        await db.cleanup();
      }
    }
  });
});
