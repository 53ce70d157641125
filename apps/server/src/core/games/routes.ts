/**
 * REST routes of the game API (all under /api). Bodies and responses are protocol's zod schemas; every
 * view in a response comes from the rules package's `playerView` (through GameRooms).
 *
 * A game created for a player (ranked attempt, practice game started with a token) takes moves, undo and
 * resign only with that player's token (401 without a token, 403 with another one); a daily game of a day
 * still open is readable (GET, legal-moves, hint) by its player alone.
 */
import {
  CreateGameBodySchema,
  DealResponseSchema,
  ErrorBodySchema,
  GameParamsSchema,
  GameResponseSchema,
  ImportGameBodySchema,
  ImportGameResponseSchema,
  LegalMovesResponseSchema,
  MAX_IMPORT_ACTIONS,
  MAX_IMPORT_BODY_BYTES,
  MoveBodySchema,
  ReplaySchema,
  StateResponseSchema,
  VersionBodySchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError } from '../../infra/errors.js';
import { PUBLIC, tokenOptional, tokenRequired } from '../../infra/http/api-security.js';
import { importGame } from './import-repository.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409 | 422 | 429 | 503)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** POST /api/games, GET /api/games/:id, moves, undo, resign, legal-moves, deal. */
export const gameRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/api/games',
    {
      schema: {
        operationId: 'createGame',
        security: tokenOptional('game:play'),
        tags: ['games'],
        summary: 'Create a game',
        description:
          'Options = `preset` (default classic-draw1) with `options` overrides. The deal is `deal` (52 codes in deal order, ' +
          'space-separated), or `dealNumber` (1…2^32−1, echoed in the response), or `sameDealAs` (the deal of another ' +
          'game, which stays hidden; without `preset`/`options` also its rules), or a fresh random deal (keyed, never ' +
          'identified in any response) when none is given. 403 `deal-embargoed` for the deal of an open daily or of a ' +
          'race that is still on (matched on the seven cards face up at the deal, docs/fairness.md). A typed `deal` ' +
          'draws on the solver allowance shared with POST /api/solve (`SOLVE_RATE_MAX` a minute per client; 429 ' +
          '`rate-limited` over it). Created with a player token, the game belongs to that player: it takes that ' +
          'player\'s moves only and counts in their statistics and history (docs/features.md "Statistics").',
        body: CreateGameBodySchema.nullish(),
        response: { 201: GameResponseSchema, ...errors(400, 403, 404, 429) },
      },
      // A typed deal is a question about a deal, like a solve: it shares the solver's allowance.
      preHandler: async (req, reply) => {
        if (req.body?.deal !== undefined) await app.solverAllowance(req, reply);
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await app.rooms.create(req.body ?? {}, (deal) => app.embargo.check(deal), req.player?.id ?? null),
        ),
  );

  app.post(
    '/api/games/import',
    {
      bodyLimit: MAX_IMPORT_BODY_BYTES,
      schema: {
        operationId: 'importGame',
        security: tokenRequired('game:play'),
        tags: ['games'],
        summary: 'Upload a game played offline',
        description:
          'A casual game played offline in the browser: its `preset`, `dealNumber` and `actions` in order (at most ' +
          `${MAX_IMPORT_ACTIONS}; a body of at most ${MAX_IMPORT_BODY_BYTES / 1024} KiB, 413 \`body-too-large\` over it). ` +
          'The server replays every action with the rules package: the first illegal one is refused with 422 ' +
          '`illegal-move` naming its index (`version`) and rule (`reason`), and nothing is stored. A legal log is ' +
          "stored as the caller's casual game, imported and unverified: it never counts in statistics, history, " +
          'boards, ratings, races, signals or puzzles; its replay is public once it is won or resigned. The same ' +
          '`clientId` uploaded again by the same player stores nothing and answers the first game (200, ' +
          '`created` false). 403 `deal-embargoed` for the deal of an open daily or race.',
        body: ImportGameBodySchema,
        response: {
          200: ImportGameResponseSchema,
          201: ImportGameResponseSchema,
          ...errors(400, 401, 403, 422),
        },
      },
    },
    async (req, reply) => {
      const owner = req.player?.id;
      if (owner === undefined) throw new ApiError('unauthorized', 'a player token is needed');
      const game = await importGame(
        { prisma: app.prisma, now: app.now, embargo: (deal) => app.embargo.check(deal) },
        owner,
        req.body,
      );
      return reply.code(game.created ? 201 : 200).send(game);
    },
  );

  app.get(
    '/api/games/:id',
    {
      schema: {
        operationId: 'getGame',
        security: tokenOptional('read'),
        tags: ['games'],
        summary: 'A game as its player sees it',
        params: GameParamsSchema,
        response: { 200: GameResponseSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => app.rooms.get(req.params.id, req.player?.id ?? null),
  );

  app.post(
    '/api/games/:id/moves',
    {
      schema: {
        operationId: 'playMove',
        security: tokenOptional('game:play'),
        tags: ['games'],
        summary: 'Make a move',
        description:
          '`version` must be the current version: 409 with the current version otherwise; 422 with the rule when illegal; 503 `overloaded` (with Retry-After) when too many moves are waiting to be stored, 503 `commit-failed` when the database did not store it (nothing changed in either case).',
        params: GameParamsSchema,
        body: MoveBodySchema,
        response: { 200: StateResponseSchema, ...errors(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (req) =>
      app.rooms.act(
        req.params.id,
        { type: 'move', move: req.body.move },
        {
          expectedVersion: req.body.version,
          actor: req.player?.id ?? null,
          scopes: req.player?.access?.scopes,
        },
      ),
  );

  app.post(
    '/api/games/:id/undo',
    {
      schema: {
        operationId: 'undoMove',
        security: tokenOptional('game:play'),
        tags: ['games'],
        summary: 'Undo the last move',
        description: 'With `version`, refused with 409 unless it is the current version.',
        params: GameParamsSchema,
        body: VersionBodySchema.nullish(),
        response: { 200: StateResponseSchema, ...errors(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (req) =>
      app.rooms.act(
        req.params.id,
        { type: 'undo' },
        {
          expectedVersion: req.body?.version,
          actor: req.player?.id ?? null,
          scopes: req.player?.access?.scopes,
        },
      ),
  );

  app.post(
    '/api/games/:id/resign',
    {
      schema: {
        operationId: 'resignGame',
        security: tokenOptional('game:play'),
        tags: ['games'],
        summary: 'Resign the game',
        description: 'With `version`, refused with 409 unless it is the current version.',
        params: GameParamsSchema,
        body: VersionBodySchema.nullish(),
        response: { 200: StateResponseSchema, ...errors(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (req) =>
      app.rooms.act(
        req.params.id,
        { type: 'resign' },
        {
          expectedVersion: req.body?.version,
          actor: req.player?.id ?? null,
          scopes: req.player?.access?.scopes,
        },
      ),
  );

  app.get(
    '/api/games/:id/legal-moves',
    {
      schema: {
        operationId: 'listLegalMoves',
        security: tokenOptional('read'),
        tags: ['games'],
        summary: 'Every legal move now',
        params: GameParamsSchema,
        response: { 200: LegalMovesResponseSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => app.rooms.legalMoves(req.params.id, req.player?.id ?? null),
  );

  app.get(
    '/api/games/:id/deal',
    {
      schema: {
        operationId: 'getGameDeal',
        security: PUBLIC,
        tags: ['games'],
        summary: 'The full deal, once the game has ended',
        description:
          '403 while the game can still be played; available once it is won or resigned. A daily game: once its day has closed.',
        params: GameParamsSchema,
        response: { 200: DealResponseSchema, ...errors(400, 403, 404) },
      },
    },
    async (req) => app.rooms.deal(req.params.id),
  );

  app.get(
    '/api/games/:id/replay',
    {
      schema: {
        operationId: 'getGameReplay',
        security: PUBLIC,
        tags: ['games'],
        summary: "A finished game's deal and move log, to watch move by move",
        description:
          'A daily game (ranked or practice): once its day has closed. Other games: once won or resigned. 403 before.',
        params: GameParamsSchema,
        response: { 200: ReplaySchema, ...errors(400, 403, 404) },
      },
    },
    async (req) => app.rooms.replay(req.params.id),
  );
  return Promise.resolve();
};
