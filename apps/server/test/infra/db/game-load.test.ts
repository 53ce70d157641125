/**
 * `PrismaGameStore.load` reads a game on the driver (infra/db/database.ts `DriverQuery`), past Prisma: its
 * times arrive as ms since the epoch from `extract(epoch …)` and its bigint deal number as whatever the
 * driver gives. On both databases, a stored game loads with the very times, deal number and options it was
 * stored with, and an unknown id loads as null.
 */
import { PRESETS, dealFromNumber } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newRoom } from '../../../src/core/rooms/room.js';
import { PrismaGameStore } from '../../../src/infra/db/game-store.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

describeEachDatabase('a game loads on the driver as it was stored', (db) => {
  let app: FastifyInstance;
  let store: PrismaGameStore;
  beforeAll(async () => {
    app = await testApp(db);
    store = new PrismaGameStore(app.prisma, app.db.writeMoves, app.db.gameVersion, app.db.query);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('times to the millisecond, the deal number past 2^32, the options; an unknown id is null', async () => {
    const dealt = dealFromNumber(7);
    if (!dealt.ok) throw new Error('deal 7');
    const { record } = newRoom(
      {
        kind: 'casual',
        deal: dealt.value,
        dealKey: null,
        daily: null,
        owner: null,
        raceCode: null,
        options: { ...PRESETS['classic-draw3'], redeals: 2 },
        preset: null,
        clockFromCreation: false,
      },
      null,
      1_000,
    );
    // Times with milliseconds, a day apart, and a deal number a 32-bit integer cannot hold.
    const stored = {
      ...record,
      dealNumber: 6_000_000_001,
      createdAt: Date.UTC(2026, 11, 5, 23, 59, 59, 987),
      startedAt: Date.UTC(2026, 11, 6, 0, 0, 1, 3),
      endedAt: Date.UTC(2026, 11, 6, 0, 7, 30, 999),
    };
    await store.insert(stored);
    const loaded = await store.load(stored.id);
    expect(loaded).not.toBeNull();
    expect(loaded?.startedAt).toBe(stored.startedAt);
    expect(loaded?.endedAt).toBe(stored.endedAt);
    expect(loaded?.dealNumber).toBe(6_000_000_001);
    expect(loaded?.version).toBe(0);
    expect(loaded?.kind).toBe('casual');
    expect(loaded?.daily).toBeNull();
    expect(loaded?.log).toEqual([]);
    expect(loaded?.options).toEqual({ ...PRESETS['classic-draw3'], redeals: 2 });
    expect(await store.load('no-such-game')).toBeNull();
  });
});
