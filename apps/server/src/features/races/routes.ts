/**
 * Race routes (docs/features.md "Races"): create, look up, join, ready, start, results, rematch. Creating and acting
 * need a player token; GET by code does not (spectators). Look-ups by code (GET, join) have their own,
 * stricter per-client rate limit so invite codes cannot be enumerated. Live updates: `race-subscribe` on
 * /api/ws (edge/socket.ts).
 */
import {
  CreateRaceBodySchema,
  ErrorBodySchema,
  RaceParamsSchema,
  RaceResultsSchema,
  RaceSchema,
  ReadyBodySchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, tokenRequired, tokenOptional } from '../../infra/http/api-security.js';
import { requirePlayer } from '../players/plugin.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409 | 429 | 503)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the /api/races routes. */
export const raceRoutes: FastifyPluginAsyncZod = (app) => {
  const lookupLimit =
    app.config.raceRateMax > 0 ? { max: app.config.raceRateMax, timeWindow: 60_000 } : undefined; // 0: the global limit

  app.post(
    '/api/races',
    {
      schema: {
        operationId: 'createRace',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Create a race room (needs a token)',
        description:
          'The caller hosts and takes the first seat. `deal`: `random`, `{"dealNumber"}` or `certified` (a random ' +
          'deal the solver proved winnable; 503 when none was found in time). Returns the room with its invite ' +
          '`code` and share `url`. A rated room needs an account old enough with enough finished games ' +
          '(docs/ratings.md "No farming"): 403 otherwise.',
        body: CreateRaceBodySchema,
        response: { 201: RaceSchema, ...errors(400, 401, 403, 429, 503) },
      },
    },
    async (req, reply) => reply.code(201).send(await app.races.create(requirePlayer(req), req.body)),
  );

  app.get(
    '/api/races/:code',
    {
      config: { rateLimit: lookupLimit },
      schema: {
        operationId: 'getRace',
        security: tokenOptional('read'),
        tags: ['races'],
        summary: 'A race room as the caller sees it (token optional: spectators)',
        params: RaceParamsSchema,
        response: { 200: RaceSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => app.races.get(req.params.code, req.player?.id ?? null),
  );

  app.post(
    '/api/races/:code/join',
    {
      config: { rateLimit: lookupLimit },
      schema: {
        operationId: 'joinRace',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Take a seat (needs a token)',
        description:
          '409 when the room is full or the race has started or finished; a seated racer gets the room. 403 for ' +
          'a bot in people’s room (or a person in bots’), and for an account not eligible for a rated room ' +
          '(docs/ratings.md "No farming").',
        params: RaceParamsSchema,
        response: { 200: RaceSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => app.races.join(req.params.code, requirePlayer(req)),
  );

  app.post(
    '/api/races/:code/ready',
    {
      schema: {
        operationId: 'setRaceReady',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Set your ready flag (a racer)',
        description: 'When every seat is taken and everyone is ready, the countdown begins.',
        params: RaceParamsSchema,
        body: ReadyBodySchema,
        response: { 200: RaceSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => app.races.ready(req.params.code, requirePlayer(req), req.body.ready),
  );

  app.post(
    '/api/races/:code/start',
    {
      schema: {
        operationId: 'startRace',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'Start the countdown (the host; at least 2 racers)',
        params: RaceParamsSchema,
        response: { 200: RaceSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => app.races.start(req.params.code, requirePlayer(req)),
  );

  app.get(
    '/api/races/:code/results',
    {
      schema: {
        operationId: 'getRaceResults',
        security: PUBLIC,
        tags: ['races'],
        summary: 'Placements, final progress, the deal and every racer’s game (finished races)',
        description:
          '403 before the race has finished. Each game’s replay is public once the race has finished.',
        params: RaceParamsSchema,
        response: { 200: RaceResultsSchema, ...errors(400, 403, 404, 429) },
      },
    },
    async (req) => app.races.results(req.params.code),
  );

  app.post(
    '/api/races/:code/rematch',
    {
      schema: {
        operationId: 'rematchRace',
        security: tokenRequired('race:play'),
        tags: ['races'],
        summary: 'A new room with the same racers and a new deal of the same kind (a racer)',
        description:
          '201 with the new room (the caller hosts; everyone seated, nobody ready); once made, the old room’s ' +
          '`rematchCode` points to it and asking again answers 200 with it. 409 before the race has finished; 403 ' +
          'for a rated race when a racer is not eligible for a rated room (docs/ratings.md "No farming").',
        params: RaceParamsSchema,
        response: { 200: RaceSchema, 201: RaceSchema, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (req, reply) => {
      const { race, created } = await app.races.rematch(req.params.code, requirePlayer(req));
      return reply.code(created ? 201 : 200).send(race);
    },
  );
  return Promise.resolve();
};
