/**
 * Quick pairing routes (docs/ratings.md "Quick race"): POST /api/pairing enters a pool, GET answers where the
 * caller stands, DELETE leaves. All need a player token. A socket that sent `auth` also hears `paired`.
 */
import { ErrorBodySchema, PairingBodySchema, PairingStatusSchema } from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenRequired } from '../../infra/http/api-security.js';
import { requirePlayer } from '../players/plugin.js';

const errors = (...codes: (400 | 401 | 409 | 429)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the /api/pairing routes. */
export const pairingRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/api/pairing',
    {
      schema: {
        operationId: 'enterPairing',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Wait for a quick rated race (needs a token)',
        description:
          "Enters the caller into the preset's pool. Answers `waiting` or, once someone of a close rating " +
          'waits too, `paired` with the race `code` (a 2-seat rated race of a certified deal whose countdown ' +
          'has begun). Already waiting or paired: the same answer as GET.',
        body: PairingBodySchema,
        response: { 200: PairingStatusSchema, ...errors(400, 401, 429) },
      },
    },
    async (req) => app.pairing.enter(requirePlayer(req), req.body.preset),
  );

  app.get(
    '/api/pairing',
    {
      schema: {
        operationId: 'getPairing',
        security: tokenRequired('read'),
        tags: ['races'],
        summary: 'Where the caller stands in the pairing pools (needs a token)',
        response: { 200: PairingStatusSchema, ...errors(401, 429) },
      },
    },
    async (req) => app.pairing.status(requirePlayer(req)),
  );

  app.delete(
    '/api/pairing',
    {
      schema: {
        operationId: 'leavePairing',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Leave the pairing pool (needs a token)',
        description:
          'Answers `idle`, or `paired` when the race was already made (it stands). 409 while the race is being made.',
        response: { 200: PairingStatusSchema, ...errors(401, 409, 429) },
      },
    },
    async (req) => app.pairing.leave(requirePlayer(req)),
  );
  return Promise.resolve();
};
