/**
 * Daily challenge routes: today's challenges, the archive, a closed day's reveal, the ranked attempt, a
 * practice game, the daily and all-time leaderboards. Nothing here reveals an open day's deal, deal number
 * or line (see daily/service.ts).
 */
import {
  AllTimeLeaderboardQuerySchema,
  AllTimeLeaderboardSchema,
  DailyArchiveSchema,
  DayListQuerySchema,
  DailyParamsSchema,
  DailyRevealSchema,
  DailyTodaySchema,
  ErrorBodySchema,
  FairPlaySignalsSchema,
  GameResponseSchema,
  LeaderboardQuerySchema,
  LeaderboardSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, tokenRequired, tokenOptional } from '../../infra/http/api-security.js';
import { nextCursor, pageStart, slicePage } from '../../infra/http/pagination.js';
import { requirePlayer } from '../players/plugin.js';
import { resultDistribution } from '../players/stats.js';
import { openDataRoutes } from './open-data-routes.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 409)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the daily routes. */
export const dailyRoutes: FastifyPluginAsyncZod = async (app) => {
  const stats = app.playerStats;
  await app.register(openDataRoutes);

  app.get(
    '/api/daily',
    {
      schema: {
        operationId: 'getDailyChallenges',
        security: tokenOptional('read'),
        tags: ['daily'],
        summary: "Today's daily challenges and tomorrow's commitments",
        description:
          "With a player token, each challenge carries the caller's own result (`you`). Every challenge carries " +
          'its `commitment` (docs/fairness.md); `tomorrow` lists the commitments of the dailies stored for ' +
          'tomorrow, published before they open.',
        response: { 200: DailyTodaySchema, ...errors(401) },
      },
    },
    async (req) => {
      const v = await app.daily.todayView(req.player);
      return { ...v, challenges: await app.ratings.annotateDailies(v.challenges, req.player?.id ?? null) };
    },
  );

  app.get(
    '/api/daily/archive',
    {
      schema: {
        operationId: 'getDailyArchive',
        security: tokenOptional('read'),
        tags: ['daily'],
        summary: 'The closed dailies of the last days, newest first',
        description: '`limit` and `cursor` page it.',
        querystring: DayListQuerySchema,
        response: { 200: DailyArchiveSchema, ...errors(400, 401) },
      },
    },
    async (req) => {
      const v = await app.daily.archiveView(req.player);
      const { page, nextCursor } = slicePage('daily-archive', v.days, req.query);
      return { ...v, days: await app.ratings.annotateDailies(page, req.player?.id ?? null), nextCursor };
    },
  );

  app.get(
    '/api/daily/:date/:preset',
    {
      schema: {
        operationId: 'getDailyReveal',
        security: PUBLIC,
        tags: ['daily'],
        summary: "A closed day's deal, par, solver line, commitment and its preimage",
        description:
          '`reveal.preimage` hashes (SHA-256) to `commitment`, published before the day opened; the deal is ' +
          '`dealFromKey(reveal.key)` (docs/fairness.md). 403 while the day is open (its commitment is in GET ' +
          '/api/daily); 404 for a date without a daily (or a day not yet open).',
        params: DailyParamsSchema,
        response: { 200: DailyRevealSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => app.daily.reveal(req.params.date, req.params.preset),
  );

  app.post(
    '/api/daily/:date/:preset/attempt',
    {
      schema: {
        operationId: 'startDailyAttempt',
        security: tokenRequired('daily:play'),
        tags: ['daily'],
        summary: "Start the caller's one ranked attempt at today's daily",
        description:
          'Needs the token. Ranked rules: undo and hints off; score and time by the server from this request ' +
          '(the cards are shown now). ' +
          'A second attempt → 409; a closed day → 409.',
        params: DailyParamsSchema,
        response: { 201: GameResponseSchema, ...errors(400, 401, 404, 409) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await app.daily.attempt(req.params.date, req.params.preset, requirePlayer(req))),
  );

  app.post(
    '/api/daily/:date/:preset/practice',
    {
      schema: {
        operationId: 'startDailyPractice',
        security: tokenOptional('game:play'),
        tags: ['daily'],
        summary: "An unranked practice game of a daily's deal",
        description:
          "Closed days only, for anyone (owned by the caller when a token is sent); today's daily → 403 until its " +
          'day has closed.',
        params: DailyParamsSchema,
        response: { 201: GameResponseSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await app.daily.practice(req.params.date, req.params.preset, req.player)),
  );

  app.get(
    '/api/daily/:date/:preset/leaderboard',
    {
      schema: {
        operationId: 'getDailyLeaderboard',
        security: tokenOptional('read'),
        tags: ['daily'],
        summary: "A daily's leaderboard",
        description:
          'Winners first, then score (high first), time, moves, finishing time. `limit` and `cursor` page it ' +
          '(`offset` is deprecated); ' +
          "`around=me` (token needed) returns the page holding the caller's row. Rows of accounts created on the " +
          "daily's date are provisional and left out unless `include=provisional`. `board=bots` shows the bot " +
          'board: bot accounts are ranked there and never on the human board (default `humans`). `distribution`: a ' +
          "histogram of the board's winning times and the share of the other finished attempts the caller beat.",
        params: DailyParamsSchema,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const offset = pageStart('daily-leaderboard', req.query);
      const board = await app.daily.leaderboard(
        req.params.date,
        req.params.preset,
        { ...req.query, offset },
        req.player,
      );
      const distribution = await resultDistribution(
        stats,
        board.date,
        board.preset,
        board.board,
        req.query.include === 'provisional',
        board.me,
      );
      const next = nextCursor('daily-leaderboard', board.offset, board.entries.length, board.total);
      return { ...board, distribution, nextCursor: next };
    },
  );

  app.get(
    '/api/daily/:date/:preset/fair-play',
    {
      schema: {
        operationId: 'getDailyFairPlay',
        security: tokenRequired('read'),
        tags: ['daily'],
        summary: "Fair-play signals of the caller's own ranked result",
        description:
          "Token needed; owner-only. Time from the attempt's creation to its first move and the share of moves on " +
          "the server's solver line. 403 while the day is open; 404 without a result.",
        params: DailyParamsSchema,
        response: { 200: FairPlaySignalsSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => app.daily.fairPlay(req.params.date, req.params.preset, requirePlayer(req)),
  );

  app.get(
    '/api/leaderboard',
    {
      schema: {
        operationId: 'getAllTimeLeaderboard',
        security: PUBLIC,
        tags: ['daily'],
        summary: 'All-time leaderboard: wins, win rate, streaks, best times',
        description:
          'People by default; `board=bots` ranks the bot accounts (never mixed). `limit` and `cursor` page it.',
        querystring: AllTimeLeaderboardQuerySchema,
        response: { 200: AllTimeLeaderboardSchema, ...errors(400, 401) },
      },
    },
    async (req) => {
      const all = await app.daily.allTime(req.query.board);
      const { page, nextCursor } = slicePage('all-time', all.entries, req.query);
      return { ...all, entries: page, nextCursor };
    },
  );
};
