/**
 * The new day's rollover waits out the midnight peak (features/daily/plugin.ts, DAILY_ROLLOVER_DELAY_MS): with
 * the daily job's timer on, neither the timer nor a request of the new day starts tomorrow's dailies, the
 * closed day's settling or the pars' refinement within the delay after midnight — the minutes when every
 * daily player opens the new day — and the timer's lease holder runs them once it has passed. Before, the timer
 * ran them 50 ms after midnight and every node's first request of the day started them too.
 */
import { DailyTodaySchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../src/infra/dates.js';
import { pgliteDatabase, testApp } from '../../support/helpers.js';

const DAY = '2031-05-20';
const DELAY_MS = 120_000;

describe('the rollover delay after midnight [PGlite]', () => {
  let app: FastifyInstance;
  let clock = Date.parse(`${addDays(DAY, -1)}T23:59:00.000Z`);
  const db = pgliteDatabase();

  beforeAll(async () => {
    app = await testApp(db, {
      now: () => clock,
      config: { dailySchedule: true, dailyTickMs: 1000, dailyRolloverDelayMs: DELAY_MS },
    });
    await app.ready();
    await app.daily.current(); // start-up's work: the day before and DAY stored
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const stored = (date: string): Promise<number> => app.prisma.dailyDeal.count({ where: { date } });

  it('neither the timer nor a request of the new day makes the day after within the delay; the timer does after', async () => {
    expect(await stored(DAY)).toBeGreaterThan(0);
    expect(await stored(addDays(DAY, 1))).toBe(0);
    clock = Date.parse(`${DAY}T00:00:10.000Z`);
    const today = await app.inject({ method: 'GET', url: '/api/daily' });
    expect(today.statusCode, today.body).toBe(200);
    expect(DailyTodaySchema.parse(today.json()).date).toBe(DAY);
    // The timer looks every second (DAILY_TICK_MS): three looks inside the delay.
    await new Promise((r) => setTimeout(r, 3200));
    expect(await stored(addDays(DAY, 1))).toBe(0);
    clock = Date.parse(`${DAY}T00:00:00.000Z`) + DELAY_MS + 1000;
    await expect.poll(() => stored(addDays(DAY, 1)), { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
  });
});
