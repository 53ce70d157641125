/**
 * Plugin `ratings`: decorates `app.ratings` (ratings/service.ts): rating closed dailies once, a player's
 * ratings and history, the rating leaderboards. The daily job rates the days it has settled (plugin
 * `daily`); every read route works without it.
 */
import fp from 'fastify-plugin';
import { RatingRepository } from './repository.js';
import { RatingService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ratings: rating closed dailies, players' ratings, rating leaderboards (plugin `ratings`). */
    ratings: RatingService;
  }
}

/** Registers the rating service. */
export const ratingsPlugin = fp(
  (app) => {
    app.decorate(
      'ratings',
      new RatingService({ repository: new RatingRepository(app.prisma), now: app.now, log: app.log }),
    );
    return Promise.resolve();
  },
  { name: 'ratings', fastify: '5.x', dependencies: ['config', 'db'] },
);
