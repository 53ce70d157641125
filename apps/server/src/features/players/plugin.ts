/**
 * Plugin `auth`: players identify themselves with `Authorization: Bearer <token>` (the token of
 * POST /api/players). Every /api request that sends a valid token gets `req.player`; an invalid or unknown
 * token is refused with 401 `unauthorized` (a client holding a revoked token learns it at once). Routes that
 * need a player call `requirePlayer(req)`. A known token's player is cached for `TOKEN_CACHE_MS` (so a burst
 * of requests costs one look-up); a rename through this server forgets the player's cached tokens at once
 * (through another node: within TOKEN_CACHE_MS). A token rotation or sign-out is a revocation
 * (`app.tokenRevocations`, players/token-revocation.ts): every node forgets the player's cached tokens and
 * closes the sockets authenticated with a revoked token as soon as the bus brings it.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../infra/errors.js';
import { type AuthedPlayer, bearerToken, fillNameSkeletons, playerByToken } from './players.js';
import { PlayerRepository } from './repository.js';
import { StatsRepository } from './stats-repository.js';
import { PlayerTokenCache } from './token-cache.js';
import { TokenRevocations } from './token-revocation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Players of recently seen bearer tokens (plugin `auth`). */
    playerTokens: PlayerTokenCache;
    /**
     * The player of a bearer token, or null when unknown (plugin `auth`): through `playerTokens`, so a
     * burst of look-ups of one token (HTTP or a socket's `auth`) costs one database read.
     */
    playerOfToken: (token: string) => Promise<AuthedPlayer | null>;
    /**
     * Token revocations (plugin `auth`): rotation and sign-out tell every node, which forget the player's
     * cached tokens and close the sockets authenticated with a revoked token.
     */
    tokenRevocations: TokenRevocations;
    /** The players' rows: accounts, tokens, names (plugin `auth`; players/repository.ts). */
    playerRows: PlayerRepository;
    /** The rows of players' statistics and histories (plugin `auth`; players/stats-repository.ts). */
    playerStats: StatsRepository;
  }
  interface FastifyRequest {
    /** The player whose bearer token the request carries, or null (plugin `auth`). */
    player: AuthedPlayer | null;
  }
}

/** The request's player. Errors: `unauthorized` when the request carries no token. */
export function requirePlayer(req: FastifyRequest): AuthedPlayer {
  if (req.player === null)
    throw new ApiError('unauthorized', 'this needs a player token: Authorization: Bearer <token>');
  return req.player;
}

/** Decorates `req.player` and resolves it from the Authorization header on /api routes. */
export const authPlugin = fp(
  (app) => {
    const cache = new PlayerTokenCache();
    app.decorate('playerTokens', cache);
    const players = new PlayerRepository(app.prisma);
    app.decorate('playerRows', players);
    app.decorate('playerStats', new StatsRepository(app.prisma));
    const revocations = new TokenRevocations(app.bus, cache, players, (err) =>
      app.log.warn({ err }, 'checking the sockets’ tokens after the bus came back failed'),
    );
    app.decorate('tokenRevocations', revocations);
    app.addHook('onClose', () => {
      revocations.close();
      return Promise.resolve();
    });
    // Players named before name skeletons get theirs once the server is up (off the start path).
    let filling: Promise<void> = Promise.resolve();
    app.addHook('onReady', () => {
      filling = fillNameSkeletons(players).then(
        (r) => {
          if (r.filled > 0 || r.clashes > 0) app.log.info(r, 'players: name skeletons filled');
        },
        (err: unknown) => app.log.warn({ err }, 'players: filling name skeletons failed'),
      );
      return Promise.resolve();
    });
    app.addHook('preClose', () => filling);
    /**
     * The player of a token, from the cache or else the database (and then cached unless a revocation was
     * heard meanwhile), or null.
     */
    const resolve = async (token: string): Promise<AuthedPlayer | null> => {
      const cached = cache.get(token);
      if (cached !== undefined) return cached;
      const generation = cache.generation;
      const player = await playerByToken(players, token);
      if (player !== null) cache.set(token, player, generation);
      return player;
    };
    app.decorate('playerOfToken', resolve);
    app.decorateRequest('player', null);
    // preValidation, after the rate limit's onRequest hook: requests with made-up tokens are counted (and
    // refused with 429) before they cost a database look-up.
    app.addHook('preValidation', async (req) => {
      const header = req.headers.authorization;
      if (header === undefined || !req.url.startsWith('/api/')) return;
      const token = bearerToken(header);
      if (token === undefined) return;
      const player = await resolve(token);
      if (player === null) throw new ApiError('unknown-token', 'unknown player token');
      req.player = player;
    });
    return Promise.resolve();
  },
  { name: 'auth', fastify: '5.x', dependencies: ['config', 'bus', 'db'] },
);
