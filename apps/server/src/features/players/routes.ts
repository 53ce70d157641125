/**
 * Player routes: POST /api/players (rate-limited more strictly), GET/PATCH /api/me, the tokens (a transfer
 * code for another device and its exchange, rotation, sign-out everywhere), GET /api/me/games/current (the
 * game another device resumes), GET /api/players/:id. The caller is `req.player` (plugin `auth`).
 */
import {
  CreatePlayerBodySchema,
  CurrentGameResponseSchema,
  ErrorBodySchema,
  MeSchema,
  PlayerCreatedSchema,
  PlayerIdSchema,
  PatchMeBodySchema,
  PlayerPageSchema,
  RedeemTransferBodySchema,
  RotatedTokenSchema,
  SignedOutSchema,
  TransferSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, tokenRequired } from '../../infra/http/api-security.js';
import { z } from 'zod';
import {
  bearerToken,
  createPlayer,
  createTransferCode,
  hashToken,
  redeemTransferCode,
  renamePlayer,
  rotateToken,
  signOutEverywhere,
  updateSettings,
} from './players.js';
import { currentGame } from './current-game.js';
import { requirePlayer } from './plugin.js';

const errors = (...codes: (400 | 401 | 404 | 409 | 429)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Registers the player routes. */
export const playerRoutes: FastifyPluginAsyncZod = (app) => {
  const players = app.playerRows;
  const createLimit =
    app.config.playerCreateRateMax > 0
      ? { max: app.config.playerCreateRateMax, timeWindow: 3_600_000 }
      : undefined; // 0: no stricter limit, the global one still applies

  app.post(
    '/api/players',
    {
      config: { rateLimit: createLimit },
      schema: {
        operationId: 'createPlayer',
        security: PUBLIC,
        tags: ['players'],
        summary: 'Create a player',
        description:
          'Returns the player and its secret `token` — shown this once; send it as `Authorization: Bearer <token>`. ' +
          'Names: 3–20 letters, digits, `_ . -` and single spaces, unique ignoring case (409 otherwise). ' +
          '`bot: true` makes a bot account: labelled as a bot, ranked on the bot boards only, racing only ' +
          'other bots, with its own per-token rate limit.',
        body: CreatePlayerBodySchema,
        response: { 201: PlayerCreatedSchema, ...errors(400, 409, 429) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await createPlayer(players, req.body.name, app.now(), req.body.bot ?? false)),
  );

  app.get(
    '/api/me',
    {
      schema: {
        operationId: 'getMe',
        security: tokenRequired('read'),
        tags: ['players'],
        summary: 'The caller (needs the token)',
        response: { 200: MeSchema, ...errors(401, 404) },
      },
    },
    async (req) => app.daily.me(requirePlayer(req)),
  );

  app.patch(
    '/api/me',
    {
      schema: {
        operationId: 'updateMe',
        security: tokenRequired('profile:write'),
        tags: ['players'],
        summary: 'Rename the caller and/or change their settings',
        description:
          '`name`: a new name (409 when taken). `settings`: the settings sent replace the stored ones, the ' +
          'others stay (see the Settings schema; unknown keys or values → 400).',
        body: PatchMeBodySchema,
        response: { 200: MeSchema, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => {
      let player = requirePlayer(req);
      const { name, settings } = req.body;
      if (name !== undefined) {
        player = await renamePlayer(players, player.id, name);
        app.playerTokens.forget(player.id);
      }
      if (settings !== undefined) await updateSettings(players, player.id, settings);
      return app.daily.me(player);
    },
  );

  app.get(
    '/api/me/games/current',
    {
      schema: {
        operationId: 'getCurrentGame',
        security: tokenRequired('read'),
        tags: ['players'],
        summary: "The caller's unfinished game they acted on last (needs the token)",
        description:
          'The game `/` resumes on any device signed in as the player: the most recently moved (or, without ' +
          "a move, created) game of the caller's own — created with one of their tokens — that is still " +
          '`playing`, of any kind but `race`; a ranked daily attempt only while its day is open. `{"game": null}` ' +
          "when there is none. Only the caller's games are ever answered; any of their tokens may then play it " +
          "(`GET /api/games/:id`, moves, the socket), and no other player's.",
        response: { 200: CurrentGameResponseSchema, ...errors(401) },
      },
    },
    async (req) => ({ game: await currentGame(players, requirePlayer(req).id, app.now()) }),
  );

  app.post(
    '/api/me/transfer',
    {
      schema: {
        operationId: 'createTransferCode',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: 'A sign-in link for another device',
        description:
          'A single-use code, valid 10 minutes, and its link `/#signin=<code>` (in the fragment, which browsers ' +
          'never send to a server). Whoever opens it first gets a new token of this player.',
        response: { 201: TransferSchema, ...errors(401) },
      },
    },
    async (req, reply) => {
      const { code, expiresAt } = await createTransferCode(players, requirePlayer(req).id, app.now());
      return reply.code(201).send({ code, url: `/#signin=${code}`, expiresAt: expiresAt.toISOString() });
    },
  );

  app.post(
    '/api/players/transfer',
    {
      config: { rateLimit: createLimit },
      schema: {
        operationId: 'redeemTransferCode',
        security: PUBLIC,
        tags: ['players'],
        summary: 'Exchange a sign-in code for a token of its player (a new device)',
        description: '401 for an unknown, used or expired code. The code works once.',
        body: RedeemTransferBodySchema,
        response: { 200: PlayerCreatedSchema, ...errors(400, 401, 429) },
      },
    },
    async (req) => redeemTransferCode(players, req.body.code, app.now()),
  );

  app.post(
    '/api/me/token',
    {
      schema: {
        operationId: 'rotateToken',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: 'Rotate the token',
        description:
          'A new token for this device; the token sent with this request stops working at once, and every ' +
          'socket authenticated with it, on any node, gets an `unknown-token` error frame and is closed with ' +
          'code 4401 within a second.',
        response: { 200: RotatedTokenSchema, ...errors(401) },
      },
    },
    async (req) => {
      const player = requirePlayer(req);
      const old = bearerToken(req.headers.authorization) ?? '';
      const token = await rotateToken(players, old, app.now());
      app.tokenRevocations.revoke({ playerId: player.id, tokenHash: hashToken(old) });
      return { token };
    },
  );

  app.post(
    '/api/me/sign-out-everywhere',
    {
      schema: {
        operationId: 'signOutEverywhere',
        security: tokenRequired('account'),
        tags: ['players'],
        summary: 'Sign out every device',
        description:
          'Every token of the player (this one included) and every open sign-in code stop working; every ' +
          'socket authenticated as the player, on any node, gets an `unknown-token` error frame and is closed ' +
          'with code 4401 within a second.',
        response: { 200: SignedOutSchema, ...errors(401) },
      },
    },
    async (req) => {
      const player = requirePlayer(req);
      const devices = await signOutEverywhere(players, player.id);
      app.tokenRevocations.revoke({ playerId: player.id });
      return { devices };
    },
  );

  app.get(
    '/api/players/:id',
    {
      schema: {
        operationId: 'getPlayer',
        security: PUBLIC,
        tags: ['players'],
        summary: "A player's page: statistics and recent daily results",
        params: z.object({ id: PlayerIdSchema }),
        response: { 200: PlayerPageSchema, ...errors(400, 404) },
      },
    },
    async (req) => ({
      ...(await app.daily.playerPage(req.params.id)),
      ratings: await app.ratings.of(req.params.id),
    }),
  );
  return Promise.resolve();
};
