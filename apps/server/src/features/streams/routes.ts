/**
 * The NDJSON streams (docs/api.md "Streams"): a game's states as they happen, the caller's events, the games of
 * a closed race or day, and a player's finished games. Every refusal (bad input, unknown game, no token, the cap
 * of open streams) is an ordinary JSON error before the stream starts; once it has started, the response is
 * `application/x-ndjson` (protocol's stream line schemas) and ends with an `end` line when it ends on its own.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DailyParamsSchema,
  ErrorBodySchema,
  EventStreamLineSchema,
  ExportStreamLineSchema,
  GameParamsSchema,
  GameStreamLineSchema,
  NDJSON_MEDIA_TYPE,
  PlayerIdSchema,
  RaceCodeSchema,
  StreamSinceQuerySchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { closesAt } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import { tokenOptional, tokenRequired } from '../../infra/http/api-security.js';
import { bearerToken, hashToken } from '../players/players.js';
import { type ExportPager, writeExport } from './exports.js';
import { openGameStream } from './game-stream.js';
import type { NdjsonStream } from './ndjson.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 429 | 503)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Both media types a stream route answers with: the stream, or a JSON error before it starts. */
const PRODUCES = [NDJSON_MEDIA_TYPE, 'application/json'];

/** The 200 entry of a stream route: the schema of one line (the OpenAPI document says so). */
function lines<T extends z.ZodType>(schema: T, what: string): T {
  return schema.meta({
    description: `${what} (\`${NDJSON_MEDIA_TYPE}\`: one JSON object of this schema a line; an empty line is a keep-alive)`,
  });
}

/** Registers the stream routes. */
export const streamRoutes: FastifyPluginAsyncZod = (app) => {
  const { hub, repository } = app.streams;

  /** Hijacks `reply` and starts the stream on the place `release` holds. */
  function begin(req: FastifyRequest, reply: FastifyReply, release: () => void): NdjsonStream {
    const headers = reply.getHeaders();
    reply.hijack();
    const stream = hub.start(reply.raw, headers, release);
    req.log.debug({ url: req.url }, 'stream: started');
    return stream;
  }

  /** Runs `fn` with a reserved place for the caller's stream, freed when `fn` throws. */
  async function reserved<T>(req: FastifyRequest, fn: (release: () => void) => Promise<T>): Promise<T> {
    const release = hub.reserve(req.ip);
    try {
      return await fn(release);
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Streams an export of `pager`'s games whose replay is open. */
  function exportTo(req: FastifyRequest, reply: FastifyReply, release: () => void, pager: ExportPager): void {
    const stream = begin(req, reply, release);
    writeExport(stream, app.rooms, pager).catch((err: unknown) => {
      req.log.warn({ err }, 'stream: export failed');
      stream.end();
    });
  }

  app.get(
    '/api/stream/games/:id',
    {
      schema: {
        operationId: 'streamGame',
        security: tokenOptional('read'),
        tags: ['streams'],
        summary: "A game's states as they happen (NDJSON)",
        description:
          'The `state` frames of the socket, one a line, on any node: the current state first, then one per ' +
          'action, then an `end` line once the game is won or resigned. With `since` (a version the reader ' +
          'holds) it starts with an `action` line for each action after it, then the first newer `state`. Who ' +
          'may read the game is as for GET /api/games/:id (a daily game of an open day: its player only). A ' +
          '`shutdown` end line: reconnect with `since`. 429 past the open streams of a client.',
        params: GameParamsSchema,
        querystring: StreamSinceQuerySchema,
        produces: PRODUCES,
        response: {
          200: lines(GameStreamLineSchema, 'the game stream'),
          ...errors(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (req, reply) =>
      reserved(req, async (release) => {
        const { subscriber, catchUp, close } = await openGameStream(
          app.rooms,
          req.params.id,
          req.query.since,
          req.player?.id ?? null,
        );
        const stream = begin(req, reply, release);
        stream.onClose(close);
        subscriber.start(stream, catchUp);
        return reply;
      }),
  );

  app.get(
    '/api/stream/events',
    {
      schema: {
        operationId: 'streamEvents',
        security: tokenRequired('read'),
        tags: ['streams'],
        summary: "The caller's events (NDJSON)",
        description:
          'An `open` line, then one line per event of the caller as it happens on any node: `paired` when a ' +
          'race was made for them (quick pairing, an arena); `race-invitation` when another racer of a finished ' +
          'race made its rematch (join it by `code`); `daily-opened` once when a new day’s dailies are playable. ' +
          'Readers ignore a `type` they do not know. Never ends on its own (a `shutdown` end line when ' +
          'the server closes: reconnect; a `revoked` end line when the token is revoked). 401 without a token.',
        produces: PRODUCES,
        response: {
          200: lines(EventStreamLineSchema, 'the events stream'),
          ...errors(401, 429, 503),
        },
      },
    },
    async (req, reply) => {
      const player = req.player;
      if (player === null)
        throw new ApiError('unauthorized', 'this needs a player token: Authorization: Bearer <token>');
      const release = hub.reserve(req.ip);
      const stream = begin(req, reply, release);
      stream.line(JSON.stringify(EventStreamLineSchema.parse({ type: 'open', playerId: player.id })));
      const stop = app.pairing.listen(player.id, { send: (text) => stream.line(text) });
      stream.onClose(stop);
      stream.onClose(app.streams.events.listen(player.id, stream));
      // A revoked token (rotation, sign-out everywhere, on any node) ends the stream at once.
      const token = bearerToken(req.headers.authorization);
      if (token !== undefined) {
        const unregister = app.tokenRevocations.register(player.id, hashToken(token), {
          revoked: () =>
            stream.end(JSON.stringify(EventStreamLineSchema.parse({ type: 'end', reason: 'revoked' }))),
        });
        stream.onClose(unregister);
      }
      return reply;
    },
  );

  app.get(
    '/api/stream/races/:code/games',
    {
      schema: {
        operationId: 'streamRaceGames',
        security: tokenOptional('read'),
        tags: ['streams'],
        summary: "A finished race's games (NDJSON)",
        description:
          "One `game` line per racer's game (its facts, its replay and its actions in the compact notation), " +
          'then an `end` line. 403 until the race has finished (its replays are public then).',
        params: z.object({ code: RaceCodeSchema }),
        produces: PRODUCES,
        response: {
          200: lines(ExportStreamLineSchema, 'the games'),
          ...errors(400, 403, 404, 429, 503),
        },
      },
    },
    async (req, reply) =>
      reserved(req, async (release) => {
        const { code } = req.params;
        const status = await repository.raceStatus(code);
        if (status === null) throw new ApiError('not-found', `no race ${code}`);
        if (status !== 'finished')
          throw new ApiError('forbidden', "a race's games are public once the race has finished");
        exportTo(req, reply, release, (after, limit) => repository.raceGames(code, after, limit));
        return reply;
      }),
  );

  app.get(
    '/api/stream/daily/:date/:preset/games',
    {
      schema: {
        operationId: 'streamDailyGames',
        security: tokenOptional('read'),
        tags: ['streams'],
        summary: "A closed day's ranked attempts (NDJSON)",
        description:
          'One `game` line per ranked attempt of the daily (people and bots), then an `end` line. 403 while ' +
          'the day is open; 404 for a daily that was never made.',
        params: DailyParamsSchema,
        produces: PRODUCES,
        response: {
          200: lines(ExportStreamLineSchema, 'the games'),
          ...errors(400, 403, 404, 429, 503),
        },
      },
    },
    async (req, reply) =>
      reserved(req, async (release) => {
        const { date, preset } = req.params;
        if (app.now() < closesAt(date))
          throw new ApiError('forbidden', "a day's games are public once the day has closed");
        if (!(await repository.dailyExists(date, preset)))
          throw new ApiError('not-found', `no daily ${date} ${preset}`);
        exportTo(req, reply, release, (after, limit) => repository.dailyGames(date, preset, after, limit));
        return reply;
      }),
  );

  app.get(
    '/api/players/:id/games/export',
    {
      schema: {
        operationId: 'exportPlayerGames',
        security: tokenOptional('read'),
        tags: ['streams'],
        summary: "A player's finished games (NDJSON)",
        description:
          'One `game` line per game of the player whose replay is open — races once finished, ranked attempts ' +
          'once their day has closed — and, for the player themself (their token), their casual and practice ' +
          'games once won or resigned; then an `end` line. Nobody sees a game still being played or a day ' +
          'still open. 404 for an unknown player.',
        params: z.object({ id: PlayerIdSchema }),
        produces: PRODUCES,
        response: {
          200: lines(ExportStreamLineSchema, 'the games'),
          ...errors(400, 401, 404, 429, 503),
        },
      },
    },
    async (req, reply) =>
      reserved(req, async (release) => {
        const { id } = req.params;
        if (!(await repository.playerExists(id))) throw new ApiError('not-found', `no player ${id}`);
        const own = req.player?.id === id;
        exportTo(req, reply, release, (after, limit) => repository.playerGames(id, !own, after, limit));
        return reply;
      }),
  );
  return Promise.resolve();
};
