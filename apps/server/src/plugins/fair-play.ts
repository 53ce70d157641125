/** Plugin `fair-play`: decorates `app.embargo`, the keyed deal hashes and the deal embargo (fairness/embargo.ts). */
import fp from 'fastify-plugin';
import { DealEmbargo } from '../fairness/embargo.js';
import '../types.js';

/** Registers the deal embargo. */
export const fairPlayPlugin = fp(
  async (app) => {
    app.decorate('embargo', new DealEmbargo(app.prisma, app.now));
  },
  { name: 'fair-play', fastify: '5.x', dependencies: ['config', 'db'] },
);
