/**
 * Puzzle routes (docs/puzzles.md "API"): the next puzzle, a puzzle, an attempt, the puzzle of the day, the
 * caller's profile, and the timed runs with their board.
 */
import {
  DailyPuzzleSchema,
  ErrorBodySchema,
  NextPuzzleQuerySchema,
  PuzzleAttemptBodySchema,
  PuzzleAttemptResultSchema,
  PuzzleParamsSchema,
  PuzzleProfileSchema,
  PuzzleRunAnswerBodySchema,
  PuzzleRunAnswerSchema,
  PuzzleRunBoardQuerySchema,
  PuzzleRunBoardSchema,
  PuzzleRunParamsSchema,
  PuzzleRunSchema,
  PuzzleSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, tokenOptional, tokenRequired } from '../../infra/http/api-security.js';
import { requirePlayer } from '../players/plugin.js';

const TAGS = ['puzzles'];

export const puzzlesRoutes: FastifyPluginAsyncZod = (app) => {
  const puzzles = app.puzzles.service;

  app.get(
    '/api/puzzles/next',
    {
      schema: {
        operationId: 'getNextPuzzle',
        security: tokenRequired('puzzle:play'),
        tags: TAGS,
        summary: "A puzzle near the caller's puzzle rating that they have not attempted",
        description:
          '404 `not-found` when no puzzle is left for the caller (of the theme, when one is named).',
        querystring: NextPuzzleQuerySchema,
        response: { 200: PuzzleSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req) => puzzles.next(requirePlayer(req).id, req.query.theme),
  );

  app.get(
    '/api/puzzles/daily',
    {
      schema: {
        operationId: 'getDailyPuzzle',
        security: PUBLIC,
        tags: TAGS,
        summary: 'The puzzle of the day (UTC): the same for everyone, on every node',
        description: '404 `not-found` while there is no puzzle at all.',
        response: { 200: DailyPuzzleSchema, 404: ErrorBodySchema },
      },
    },
    async () => puzzles.daily(),
  );

  app.get(
    '/api/puzzles/me',
    {
      schema: {
        operationId: 'getPuzzleProfile',
        security: tokenRequired('read'),
        tags: TAGS,
        summary: "The caller's puzzle rating, its history, results by theme and best timed runs",
        response: { 200: PuzzleProfileSchema, 401: ErrorBodySchema },
      },
    },
    async (req) => puzzles.profile(requirePlayer(req).id),
  );

  app.post(
    '/api/puzzles/runs',
    {
      schema: {
        operationId: 'startPuzzleRun',
        security: tokenRequired('puzzle:play'),
        tags: TAGS,
        summary: 'Starts a timed run: PUZZLE_RUN_MS by the server clock, and its first puzzle',
        description: '404 `not-found` while there is no puzzle at all.',
        response: { 201: PuzzleRunSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await puzzles.startRun(requirePlayer(req).id)),
  );

  app.get(
    '/api/puzzles/runs/board',
    {
      schema: {
        operationId: 'getPuzzleRunBoard',
        security: tokenOptional('read'),
        tags: TAGS,
        summary: "The timed runs' board of today (UTC) or of all time: each player's best finished run",
        description:
          "Bots are listed with `bot: true`; with a token, `me` is the caller's own row (whatever the page). " +
          'Pages with `limit` and `cursor` (`nextCursor`, and a `Link` header when there is a next page).',
        querystring: PuzzleRunBoardQuerySchema,
        response: { 200: PuzzleRunBoardSchema, 400: ErrorBodySchema },
      },
    },
    async (req) => puzzles.board(req.query.period, req.query, req.player?.id ?? null),
  );

  app.get(
    '/api/puzzles/runs/:id',
    {
      schema: {
        operationId: 'getPuzzleRun',
        security: tokenRequired('read'),
        tags: TAGS,
        summary: "The caller's own timed run as it stands by the server clock",
        description: "403 `forbidden` for another player's run.",
        params: PuzzleRunParamsSchema,
        response: {
          200: PuzzleRunSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req) => puzzles.getRun(requirePlayer(req).id, req.params.id),
  );

  app.post(
    '/api/puzzles/runs/:id/answer',
    {
      schema: {
        operationId: 'answerPuzzleRun',
        security: tokenRequired('puzzle:play'),
        tags: TAGS,
        summary: "An answer to the caller's run's current puzzle",
        description:
          "A wrong answer takes PUZZLE_RUN_PENALTY_MS off the clock. An answer after the run's end (server " +
          "clock) finishes the run and is not counted. 409 `conflict` when `puzzleId` is not the run's " +
          "current puzzle; 403 `forbidden` for another player's run. Puzzle ratings do not move.",
        params: PuzzleRunParamsSchema,
        body: PuzzleRunAnswerBodySchema,
        response: {
          200: PuzzleRunAnswerSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
          409: ErrorBodySchema,
        },
      },
    },
    async (req) => puzzles.answerRun(requirePlayer(req).id, req.params.id, req.body.puzzleId, req.body.moves),
  );

  app.get(
    '/api/puzzles/:id',
    {
      schema: {
        operationId: 'getPuzzle',
        security: PUBLIC,
        tags: TAGS,
        summary: 'A puzzle: its position as the player sees it, goal, rating, themes and source',
        params: PuzzleParamsSchema,
        response: { 200: PuzzleSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req) => puzzles.get(req.params.id),
  );

  app.post(
    '/api/puzzles/:id/attempt',
    {
      schema: {
        operationId: 'attemptPuzzle',
        security: tokenRequired('puzzle:play'),
        tags: TAGS,
        summary: 'An attempt at a puzzle: the verdict, the solution, and the rating changes',
        description:
          "Only the caller's first attempt at a puzzle is rated (the player's and the puzzle's ratings move); " +
          'later ones answer `rated: false` with before = after. The moves are checked on the server with the ' +
          'rules package.',
        params: PuzzleParamsSchema,
        body: PuzzleAttemptBodySchema,
        response: {
          200: PuzzleAttemptResultSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req) => puzzles.attempt(requirePlayer(req).id, req.params.id, req.body.moves),
  );
  return Promise.resolve();
};
