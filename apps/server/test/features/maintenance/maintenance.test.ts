/**
 * Retention and bounded memory (hardening): idle anonymous games are deleted with their moves after
 * GAME_RETENTION_DAYS while finished, recent and watched games stay; race lobbies nobody starts are closed
 * after RACE_LOBBY_TTL_MS and leave memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readLog } from '../../../src/infra/db/game-log.js';
import { describeEachDatabase, pgliteDatabase, testApp, WsClient, wsUrl } from '../../support/helpers.js';
import { call, newPlayer, raceOf } from '../../support/race-helpers.js';

const DAY = 86_400_000;

describeEachDatabase('maintenance', (db) => {
  let app: FastifyInstance;
  let clock = Date.now();
  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { gameRetentionDays: 30, raceLobbyTtlMs: 3_600_000, maintenanceTickMs: 0 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function game(): Promise<string> {
    return (await app.inject({ method: 'POST', url: '/api/games', payload: {} })).json<{ id: string }>().id;
  }

  it('deletes idle unfinished anonymous games with their moves; keeps recent (under 30 days), finished and watched ones', async () => {
    const idle = await game();
    await app.inject({
      method: 'POST',
      url: `/api/games/${idle}/moves`,
      payload: { move: { type: 'draw' }, version: 0 },
    });
    const finished = await game();
    await app.inject({ method: 'POST', url: `/api/games/${finished}/resign`, payload: { version: 0 } });
    const watched = await game();
    const ws = await WsClient.connect(wsUrl(app));
    await ws.request({ type: 'subscribe', gameId: watched }, (f) => f.type === 'state');
    expect(await app.prisma.move.count({ where: { gameId: idle } })).toBe(1);

    // 29 days later nothing is old enough; 31 days later the idle game goes.
    clock += 29 * DAY;
    expect((await app.maintenance()).gamesDeleted).toBe(0);
    clock += 2 * DAY;
    const r = await app.maintenance();
    expect(r.gamesDeleted).toBe(1);
    expect(await app.prisma.game.findUnique({ where: { id: idle } })).toBeNull();
    expect(await app.prisma.move.count({ where: { gameId: idle } })).toBe(0);
    expect((await app.inject({ method: 'GET', url: `/api/games/${idle}` })).statusCode).toBe(404);
    for (const kept of [finished, watched])
      expect(await app.prisma.game.findUnique({ where: { id: kept } })).not.toBeNull();
    // A kept game keeps its log (the resignation is its one entry), compacted into its row by now.
    const row = await app.prisma.game.findUniqueOrThrow({ where: { id: finished } });
    expect((await readLog(app.prisma, row)).map((e) => e.kind)).toEqual(['resign']);
    expect(row.moveLog).not.toBeNull();
    ws.close();
  });

  it('closes a lobby nobody started after RACE_LOBBY_TTL_MS and drops it from memory', async () => {
    const host = await newPlayer(app, 'lobby');
    const created = raceOf(await call(app, 'POST', '/api/races', { as: host, payload: {} }), 201);
    const before = app.races.liveCount;
    clock += 30 * 60_000;
    expect((await app.maintenance()).lobbiesClosed).toBe(0);
    clock += 31 * 60_000;
    expect((await app.maintenance()).lobbiesClosed).toBe(1);
    expect(app.races.liveCount).toBe(before - 1);
    const room = raceOf(await call(app, 'GET', `/api/races/${created.code}`));
    expect(room.status).toBe('finished');
    const row = await app.prisma.race.findUniqueOrThrow({ where: { code: created.code } });
    expect(row.endReason).toBe('abandoned');
  });
});

describe('retention settings', () => {
  it('GAME_RETENTION_DAYS=0 keeps every game', async () => {
    let clock = Date.now();
    const app = await testApp(pgliteDatabase(), {
      now: () => clock,
      config: { gameRetentionDays: 0, maintenanceTickMs: 0 },
    });
    try {
      await app.inject({ method: 'POST', url: '/api/games', payload: {} });
      clock += 3650 * DAY;
      expect((await app.maintenance()).gamesDeleted).toBe(0);
      expect(await app.prisma.game.count()).toBe(1);
    } finally {
      await app.close();
    }
  });
});
