/** Review route (docs/review.md): GET /api/games/:id/review. */
import { ErrorBodySchema, GameIdSchema, GameReviewPendingSchema, GameReviewSchema } from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC } from '../../infra/http/api-security.js';

export const reviewRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/games/:id/review',
    {
      schema: {
        operationId: 'getGameReview',
        security: PUBLIC,
        tags: ['games'],
        summary: "A finished game's review: the point of no return, the winning continuation, accuracy",
        description:
          'Shown exactly when the replay is: a daily game once its day has closed, a race game once its race ' +
          'has finished, any other game once won or resigned (403 before). The first request starts the ' +
          'computation and answers 202 with `retryAfterMs` (also in `Retry-After`, seconds); ask again until ' +
          '200. 503 `solver-busy` when the node is computing too many reviews.',
        params: z.object({ id: GameIdSchema }),
        response: {
          200: GameReviewSchema,
          202: GameReviewPendingSchema,
          400: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const answer = await app.reviews.review(req.params.id);
      if (answer.status === 'done') return answer.review;
      void reply.code(202).header('retry-after', Math.ceil(answer.retryAfterMs / 1000));
      return { id: req.params.id, status: 'pending' as const, retryAfterMs: answer.retryAfterMs };
    },
  );
  return Promise.resolve();
};
