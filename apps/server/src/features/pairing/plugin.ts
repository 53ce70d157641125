/**
 * Plugin `pairing`: decorates `app.pairing` (pairing/service.ts), the quick-pairing pools. The pools live in
 * the database and `paired` notices cross nodes on the bus, so any node serves any player. On close it stops
 * ticking and waits for the races it is making.
 */
import { PAIRING_PRESETS } from '@klondike/protocol';
import fp from 'fastify-plugin';
import { PairingRepository } from './repository.js';
import { PairingService } from './service.js';
import { racePool } from '../ratings/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Quick pairing pools (plugin `pairing`). */
    pairing: PairingService;
  }
}

/** `sizes` with every pairing preset named (0 when no one waits), so a pool's series never vanishes. */
function withEveryPreset(sizes: readonly (readonly [string, number])[]): [string, number][] {
  const by = new Map(sizes);
  return PAIRING_PRESETS.map((preset) => [preset, by.get(preset) ?? 0]);
}

/** Registers the pairing service. */
export const pairingPlugin = fp(
  (app) => {
    const repository = new PairingRepository(app.prisma);
    const pairing = new PairingService({
      repository,
      bus: app.bus,
      now: app.now,
      log: app.log,
      ratingOf: async (playerId, preset) => {
        const pool = racePool(preset);
        const ratings = await app.ratings.of(playerId);
        return (pool === null ? undefined : ratings[pool]?.rating) ?? 1500;
      },
      makeRace: (preset, racers) => app.races.createPaired(preset, racers),
    });
    app.decorate('pairing', pairing);
    app.metrics.gaugeByLabel(
      'pairing_pool_players',
      'Players waiting to be paired, by preset (the whole cluster: read from the database at scrape time).',
      'preset',
      async () => withEveryPreset(await repository.poolSizes()),
    );
    app.addHook('preClose', () => pairing.stop());
    return Promise.resolve();
  },
  { name: 'pairing', fastify: '5.x', dependencies: ['config', 'db', 'bus', 'metrics', 'ratings', 'races'] },
);
