/**
 * Which games get fair-play signals, on PGlite and on Postgres (features/signals/repository.ts `pending`):
 * the racers' games of finished rated races (`race`) and of finished arena races (`arena`); not those of a
 * race still running, nor of an unrated race, nor a casual game; a game whose deal cannot be read gets a
 * row from its log's times alone. Rows written straight to the database.
 */
import { PRESETS, dealFromNumber, formatDeal } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

describeEachDatabase('games pending fair-play signals', (db) => {
  let app: FastifyInstance;
  const deal = dealFromNumber(7);
  if (!deal.ok) throw new Error(deal.error.message);
  const dealText = formatDeal(deal.value);

  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  /** A race of `status` with one racer (player `p`) and its game `g<code>`. */
  async function race(
    code: string,
    status: 'running' | 'finished',
    rated: boolean,
    arenaId: string | null,
    gameDeal = dealText,
  ) {
    await app.prisma.race.create({
      data: {
        code,
        status,
        rated,
        arenaId,
        preset: 'classic-draw1',
        options: PRESETS['classic-draw1'],
        dealKind: 'random',
        deal: dealText,
        maxPlayers: 2,
        hostId: 'p',
      },
    });
    await app.prisma.game.create({
      data: { id: `g${code}`, preset: 'classic-draw1', deal: gameDeal, playerId: 'p', raceCode: code },
    });
    await app.prisma.raceRacer.create({
      data: { raceCode: code, playerId: 'p', seat: 0, gameId: `g${code}` },
    });
  }

  it('finished rated and arena races count; running, unrated and casual games do not', async () => {
    await app.prisma.player.create({ data: { id: 'p', name: 'Racer', nameKey: 'racer' } });
    await race('RATED1', 'finished', true, null);
    await race('ARENA1', 'finished', false, 'arena-1');
    await race('RUNNING', 'running', true, null);
    await race('CASUAL', 'finished', false, null);
    await app.prisma.game.create({
      data: { id: 'gfree', preset: 'classic-draw1', deal: dealText, playerId: 'p' },
    });

    expect(await app.signals.sweep()).toBe(2);
    const rows = await app.prisma.gameSignals.findMany({ orderBy: { gameId: 'asc' } });
    expect(rows.map((r) => [r.gameId, r.kind, r.moves, r.flags])).toEqual([
      ['gARENA1', 'arena', 0, []],
      ['gRATED1', 'race', 0, []],
    ]);
    // The race that was running finishes: the next pass takes its game.
    await app.prisma.race.update({ where: { code: 'RUNNING' }, data: { status: 'finished' } });
    expect(await app.signals.sweep()).toBe(1);
    expect(await app.signals.sweep()).toBe(0);
  });

  it('a game the analysis cannot read still gets its row (times only), so it never blocks later passes', async () => {
    await race('BROKEN', 'finished', true, null, 'not a deal');
    expect(await app.signals.sweep()).toBe(1);
    const row = await app.prisma.gameSignals.findUniqueOrThrow({ where: { gameId: 'gBROKEN' } });
    expect(row).toMatchObject({ kind: 'race', moves: 0, solverAgreement: null, hiddenChoices: 0 });
    expect(await app.signals.sweep()).toBe(0);
  });
});
