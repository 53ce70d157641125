/** Plugin `fair-play`: decorates `app.embargo`, the keyed deal hashes and the deal embargo (fairness/embargo.ts). */
import fp from 'fastify-plugin';
import { DealEmbargo } from './embargo.js';
import { FairnessRepository } from './repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Keyed deal hashes and the deal embargo (plugin `fair-play`). */
    embargo: DealEmbargo;
  }
}

/**
 * Registers the deal embargo, and brings the stored hashes of the races still on to the embargo's key
 * (`DealEmbargo.rehashLiveRaces`: a no-op unless they were stored by an older server).
 */
export const fairPlayPlugin = fp(
  async (app) => {
    const embargo = new DealEmbargo(new FairnessRepository(app.prisma), app.now);
    app.decorate('embargo', embargo);
    const rewritten = await embargo.rehashLiveRaces();
    if (rewritten > 0) app.log.info({ races: rewritten }, 'deal embargo: live races rehashed');
  },
  { name: 'fair-play', fastify: '5.x', dependencies: ['config', 'db'] },
);
