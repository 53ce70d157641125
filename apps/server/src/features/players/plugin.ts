/**
 * Plugin `auth`: players identify themselves with `Authorization: Bearer <token>` (the token of
 * POST /api/players). Every /api request that sends a valid token gets `req.player`; an invalid or unknown
 * token is refused with 401 `unauthorized` (a client holding a revoked token learns it at once). Routes that
 * need a player call `requirePlayer(req)`. A known token's player is cached for `TOKEN_CACHE_MS` (so a burst
 * of requests costs one look-up); a rename through this server forgets the player's cached tokens at once
 * (through another node: within TOKEN_CACHE_MS). A token rotation or sign-out is a revocation
 * (`app.tokenRevocations`, players/token-revocation.ts): every node forgets the player's cached tokens and
 * closes the sockets authenticated with a revoked token as soon as the bus brings it.
 *
 * A personal access token (players/access-tokens.ts) identifies its player too, with a grant: the route's
 * declared scope (infra/http/api-security.ts `routeScope`) must be among its scopes, or the request is
 * refused with 403 `missing-scope`; an expired one is refused like an unknown token (401). Revoking one
 * (DELETE /api/tokens/:id) goes through the same revocation path as a rotation.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../infra/errors.js';
import { checkScope, routeScope } from '../../infra/http/api-security.js';
import { AccessTokenRepository } from './access-token-repository.js';
import { LastUse, expired, playerByAccessToken } from './access-tokens.js';
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
    /** The rows of personal access tokens (plugin `auth`; players/access-token-repository.ts). */
    accessTokens: AccessTokenRepository;
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
    const players = new PlayerRepository(app.prisma, app.db.query);
    app.decorate('playerRows', players);
    app.decorate('playerStats', new StatsRepository(app.prisma));
    const accessTokens = new AccessTokenRepository(app.prisma);
    app.decorate('accessTokens', accessTokens);
    const live = {
      // Sign-in tokens and personal tokens alike (a bus outage may have hidden either's revocation).
      liveTokenHashes: async (hashes: readonly string[]): Promise<Set<string>> => {
        const [signIn, personal] = await Promise.all([
          players.liveTokenHashes(hashes),
          accessTokens.liveHashes(hashes, new Date(app.now())),
        ]);
        return new Set([...signIn, ...personal]);
      },
    };
    const lastUse = new LastUse(
      (id, at) => accessTokens.touch(id, at),
      (err) => app.log.warn({ err }, 'recording a personal token’s last use failed'),
    );
    const revocations = new TokenRevocations(app.bus, cache, live, (err) =>
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
     * The player of a token (a sign-in token, else a personal access token), from the cache or else the
     * database (and then cached unless a revocation was heard meanwhile), or null; null as well for a
     * personal token expired by now, cached or not. A personal token's use is recorded (`LastUse`).
     */
    const resolve = async (token: string): Promise<AuthedPlayer | null> => {
      const now = app.now();
      let player = cache.get(token) ?? null;
      if (player === null) {
        const generation = cache.generation;
        player =
          (await playerByToken(players, token)) ?? (await playerByAccessToken(accessTokens, token, now));
        if (player !== null) cache.set(token, player, generation);
      }
      if (player?.access === undefined) return player;
      if (expired(player.access, now)) return null;
      lastUse.seen(player.access.tokenId, now);
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
      // A personal token needs the scope the route declares (api-security.ts); a sign-in token has all.
      if (player.access !== undefined && !req.is404) {
        const scope = routeScope(req.routeOptions.schema?.security);
        if (scope !== null) checkScope(player.access.scopes, scope);
      }
      req.player = player;
    });
    return Promise.resolve();
  },
  { name: 'auth', fastify: '5.x', dependencies: ['config', 'bus', 'db'] },
);
