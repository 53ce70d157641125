/**
 * Arena routes (docs/arenas.md): list, create, look up, join, leave (pause), berserk. Creating and acting need
 * a player token; reading does not. Live standings: `arena-subscribe` on /api/ws (edge/socket.ts).
 */
import {
  ArenaListQuerySchema,
  ArenaListSchema,
  ArenaParamsSchema,
  ArenaSchema,
  CreateArenaBodySchema,
  ErrorBodySchema,
  JoinArenaBodySchema,
  RaceSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError } from '../../infra/errors.js';
import { tokenRequired, tokenOptional } from '../../infra/http/api-security.js';
import { slicePage } from '../../infra/http/pagination.js';
import { requirePlayer } from '../players/plugin.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409 | 429)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the /api/arenas routes. */
export const arenaRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/arenas',
    {
      schema: {
        operationId: 'listArenas',
        security: tokenOptional('read'),
        tags: ['arenas'],
        summary: 'Upcoming, running and recently finished arenas',
        description:
          'Invite-only arenas are listed to their creator and players only. `limit` and `cursor` page the ' +
          'finished arenas; the first page also lists every upcoming and running one, later pages none.',
        querystring: ArenaListQuerySchema,
        response: { 200: ArenaListSchema, ...errors(400, 401, 429) },
      },
    },
    async (req) => {
      const list = await app.arenas.list(req.player?.id ?? null);
      const { page, nextCursor } = slicePage('arenas', list.finished, req.query);
      const first = req.query.cursor === undefined;
      return {
        upcoming: first ? list.upcoming : [],
        running: first ? list.running : [],
        finished: page,
        nextCursor,
      };
    },
  );

  app.post(
    '/api/arenas',
    {
      schema: {
        operationId: 'createArena',
        security: tokenRequired('arena:play'),
        tags: ['arenas'],
        summary: 'Create an arena (needs a token)',
        description:
          'A bot makes an arena of the bot board. `inviteOnly`: players need the invite code, shown to the creator ' +
          'as `me.inviteCode`.',
        body: CreateArenaBodySchema,
        response: { 201: ArenaSchema, ...errors(400, 401, 429) },
      },
    },
    async (req, reply) => reply.code(201).send(await app.arenas.create(requirePlayer(req), req.body)),
  );

  app.get(
    '/api/arenas/:id',
    {
      schema: {
        operationId: 'getArena',
        security: tokenOptional('read'),
        tags: ['arenas'],
        summary: 'An arena: status, standings, the caller, the podium once finished',
        description:
          'An invite-only arena is answered only to its creator and players; to anyone else it is 404 ' +
          '`not-found`, as a missing arena is.',
        params: ArenaParamsSchema,
        response: { 200: ArenaSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => app.arenas.get(req.params.id, req.player?.id ?? null),
  );

  app.post(
    '/api/arenas/:id/join',
    {
      schema: {
        operationId: 'joinArena',
        security: tokenRequired('arena:play'),
        tags: ['arenas'],
        summary: 'Join an arena, or come back from a pause (needs a token)',
        description:
          'An invite-only arena needs its `inviteCode` from a player not yet in it; without the right code ' +
          'it is 404 `not-found`, as a missing arena is.',
        params: ArenaParamsSchema,
        body: JoinArenaBodySchema,
        response: { 200: ArenaSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => app.arenas.join(req.params.id, requirePlayer(req), req.body.inviteCode),
  );

  app.post(
    '/api/arenas/:id/leave',
    {
      schema: {
        operationId: 'leaveArena',
        security: tokenRequired('arena:play'),
        tags: ['arenas'],
        summary: 'Pause: no new pairings (needs a token); a race under way still counts',
        params: ArenaParamsSchema,
        response: { 200: ArenaSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => app.arenas.leave(req.params.id, requirePlayer(req)),
  );

  app.post(
    '/api/arenas/:id/berserk',
    {
      schema: {
        operationId: 'berserkArena',
        security: tokenRequired('arena:play'),
        tags: ['arenas'],
        summary: 'Go berserk in your arena race, before its countdown ends (needs a token)',
        description:
          'The race is played without undo and hints and with half the time limit; a won berserk race adds 1 ' +
          'point. 409 once the race runs or when you have no race in this arena.',
        params: ArenaParamsSchema,
        response: { 200: RaceSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      const player = requirePlayer(req);
      const code = await app.arenas.currentRace(req.params.id, player.id);
      if (code === null) throw new ApiError('conflict', 'you have no race in this arena now');
      return app.races.setBerserk(code, player.id);
    },
  );
  return Promise.resolve();
};
