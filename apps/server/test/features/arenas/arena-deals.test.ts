/**
 * What the arena tick asks of the races' deal reserve (arenas/service.ts, `prepareDeals`): after each tick,
 * the deals its running arenas may need by preset, and none any more for a preset no arena runs. The
 * service runs on a repository that answers set tick results (the rows are not what is tested here).
 */
import { pino } from 'pino';
import { expect, it } from 'vitest';
import type { ArenaRepository, TickResult } from '../../../src/features/arenas/repository.js';
import { ArenaService } from '../../../src/features/arenas/service.js';
import { SingleNodeBus } from '../../../src/infra/bus/event-bus.js';

it('asks for the running arenas’ deals after each tick, and for none once no arena of the preset runs', async () => {
  const results: TickResult[] = [
    {
      dealsWanted: new Map([
        ['classic-draw1', 3],
        ['classic-draw3', 1],
      ]),
    },
    { dealsWanted: new Map([['classic-draw1', 2]]) },
    { dealsWanted: new Map() },
  ].map((r) => ({ changed: new Set(), claims: [], nextStart: null, scoredEndedAt: [], ...r }));
  const repository = {
    tick: () => Promise.resolve(results.shift() ?? null),
    berserkGames: () => Promise.resolve([]),
  } as unknown as ArenaRepository;
  const asked: [string, number][] = [];
  const service = new ArenaService({
    repository,
    bus: new SingleNodeBus(),
    now: () => Date.now(),
    log: pino({ level: 'silent' }),
    makeRace: () => Promise.reject(new Error('no pairs here')),
    notifyPaired: () => {},
    stopGame: () => Promise.resolve(),
    schedule: [],
    prepareDeals: (preset, count) => asked.push([preset, count]),
  });
  try {
    await service.tick();
    expect(asked.splice(0)).toEqual([
      ['classic-draw1', 3],
      ['classic-draw3', 1],
    ]);
    await service.tick();
    expect(asked.splice(0)).toEqual([
      ['classic-draw3', 0],
      ['classic-draw1', 2],
    ]);
    await service.tick();
    expect(asked.splice(0)).toEqual([['classic-draw1', 0]]);
  } finally {
    await service.stop();
  }
});
