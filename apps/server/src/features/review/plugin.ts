/**
 * Plugin `review`: decorates `app.reviews` (review/service.ts), the reviews of finished games computed in the
 * solver's background lane and kept in memory.
 */
import fp from 'fastify-plugin';
import { ReviewService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reviews of finished games (plugin `review`). */
    reviews: ReviewService;
  }
}

/** Registers the review service. */
export const reviewPlugin = fp(
  (app) => {
    const reviews = new ReviewService({
      replay: (id) => app.rooms.replay(id),
      solver: app.solver,
      verdictMs: app.config.reviewVerdictMs,
      cacheSize: app.config.reviewCache,
      pendingMax: app.config.reviewPendingMax,
      log: app.log,
    });
    // Nothing to wait for on close: the solver's pools close with the app, which fails the reviews being
    // computed (logged, never cached); a finished game's review is computed again on its next request.
    app.decorate('reviews', reviews);
    return Promise.resolve();
  },
  { name: 'review', fastify: '5.x', dependencies: ['config', 'game-rooms', 'solver'] },
);
