/**
 * Solver routes: POST /api/solve (a verdict and winning line for any deal), GET /api/games/:id/hint (the
 * next move of a winning line from a game's position) and GET /api/games/:id/winnable (the same answer for
 * the "still winnable?" badge, with an allowance of its own). Searches run on the solver's worker threads;
 * each route has its own, stricter rate limit: POST /api/solve draws on the solver's allowance, shared with
 * typed-deal games (`app.solverAllowance`, solve/allowance.ts).
 */
import {
  ErrorBodySchema,
  GameParamsSchema,
  HintResponseSchema,
  SolveBodySchema,
  SolveResponseSchema,
  type HintResponse,
} from '@klondike/protocol';
import { DEFAULT_PRESET, dealFromNumber, parseDeal, resolveOptions } from '@klondike/rules';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenOptional } from '../../infra/http/api-security.js';
import { SOLVER_WINDOW_MS } from './allowance.js';
import { ApiError } from '../../infra/errors.js';
import { KnownLines } from './known-lines.js';
import { solveTaskOf } from './budget.js';

const errors = (...codes: (400 | 401 | 403 | 404 | 429 | 503)[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorBodySchema]));

/** Hints remembered per game version, so asking again for the same position costs nothing. */
const HINT_CACHE_SIZE = 2000;

/** Registers POST /api/solve and GET /api/games/:id/hint. */
export const solveRoutes: FastifyPluginAsyncZod = (app) => {
  // POST /api/solve: the solver's allowance (onRequest, shared with typed-deal games) in place of the global
  // limit; 0 = the global limit. The route's own limiter counts nothing (`allowList`): it is there so that the
  // global one stays off and the quota is named (RateLimit-Policy, the OpenAPI document's 429 and headers).
  const solveLimit =
    app.config.solveRateMax > 0
      ? { max: app.config.solveRateMax, timeWindow: SOLVER_WINDOW_MS, allowList: () => true }
      : undefined;
  // The hints: a stricter per-client limit in place of the global one (searches are expensive).
  const rateLimit =
    app.config.solveRateMax > 0 ? { max: app.config.solveRateMax, timeWindow: 60_000 } : undefined;
  const hints = new Map<string, HintResponse>();
  const lines = new KnownLines();
  // The badge's own allowance: it asks after every move, and must not use up the hints.
  const winnableRateLimit =
    app.config.winnableRateMax > 0 ? { max: app.config.winnableRateMax, timeWindow: 60_000 } : undefined;

  app.post(
    '/api/solve',
    {
      config: { rateLimit: solveLimit },
      onRequest: app.solverAllowance,
      schema: {
        operationId: 'solveDeal',
        security: tokenOptional('game:play'),
        tags: ['solver'],
        summary: 'Solve a deal',
        description:
          'Decides a deal under the given rules: `won` with a winning `line` (public moves from the deal), ' +
          '`impossible` (proven: no win exists) or `unknown` (not decided within `timeLimitMs`, capped by the ' +
          'server). Options = `preset` (default classic-draw1) with `options` overrides. 403 `deal-embargoed` for ' +
          'the deal of an open daily or of a race that is still on. `shorten: true` runs the line-shortening ' +
          "post-pass (default off: the search's own line). `minimal: true` searches a shortest line (IDA*, every " +
          'public move counts one) until the time limit and adds `optimal` (proven shortest) and `lowerBound` (proven). ' +
          'Answers are time-limited (they depend on the machine and its load); with `maxNodes` the search is limited by ' +
          'positions instead, reads no clock and gives the same answer for the same body on any machine (`shorten` off). ' +
          'Counted against the solver allowance (`SOLVE_RATE_MAX` a minute per client), which typed-deal games share.',
        body: SolveBodySchema,
        response: { 200: SolveResponseSchema, ...errors(400, 403, 429, 503) },
      },
    },
    async (req) => {
      const body = req.body;
      const options = resolveOptions(body.preset ?? DEFAULT_PRESET, body.options ?? {});
      const deal = body.deal !== undefined ? parseDeal(body.deal) : dealFromNumber(body.dealNumber ?? 0);
      if (!deal.ok) throw new ApiError('bad-request', deal.error.message);
      await app.embargo.check(deal.value);
      // Time-limited, or deterministic with `maxNodes` (solve/budget.ts).
      return app.solver.run(solveTaskOf(body, deal.value, options, app.config), {
        priority: 'solve',
        client: req.player?.id ?? req.ip,
      });
    },
  );

  /**
   * The answer for a game's current position: from the per-version cache, from a known winning line (no
   * search), or from a search on a solver thread (whose winning line is then remembered).
   */
  async function answer(id: string, actor: string | null, client: string): Promise<HintResponse> {
    const { state, version, status, deal, casual } = await app.rooms.position(id, actor);
    if (!state.options.hints) throw new ApiError('forbidden', 'hints are turned off for this game');
    if (casual) await app.embargo.check(deal);
    const key = `${id}@${version}`;
    const cached = hints.get(key);
    if (cached) return cached;
    let hint: HintResponse;
    const known = status === 'playing' ? lines.lookup(id, state) : undefined;
    if (status === 'won') hint = { version, verdict: 'won', lineLength: 0 };
    else if (status === 'resigned') hint = { version, verdict: 'impossible' };
    else if (known) hint = { version, verdict: 'won', ...known };
    else {
      const r = await app.solver.run(
        { kind: 'position', state, timeLimitMs: app.config.hintTimeMs },
        { priority: 'hint', client },
      );
      if (r.verdict === 'won' && r.line) lines.remember(id, state, r.line);
      const first = r.line?.[0];
      hint = {
        version,
        verdict: r.verdict,
        ...(first !== undefined ? { move: first, lineLength: r.line?.length ?? 0 } : {}),
      };
    }
    if (hint.verdict !== 'unknown') {
      if (hints.size >= HINT_CACHE_SIZE) hints.delete(hints.keys().next().value as string);
      hints.set(key, hint);
    }
    return hint;
  }

  app.get(
    '/api/games/:id/hint',
    {
      config: { rateLimit },
      schema: {
        operationId: 'getHint',
        security: tokenOptional('game:play'),
        tags: ['solver'],
        summary: 'A hint for a casual game',
        description:
          'The next move of a winning line from the current position (`won`), or `impossible` (no win from ' +
          'here) or `unknown` (not decided in time). 403 when the game turns hints off (ranked play, races by ' +
          "default), and 403 `deal-embargoed` for a casual game of an open daily's or a running race's deal.",
        params: GameParamsSchema,
        response: { 200: HintResponseSchema, ...errors(400, 401, 403, 404, 429, 503) },
      },
    },
    async (req) => answer(req.params.id, req.player?.id ?? null, req.player?.id ?? req.ip),
  );

  app.get(
    '/api/games/:id/winnable',
    {
      config: { rateLimit: winnableRateLimit },
      schema: {
        operationId: 'getWinnable',
        security: tokenOptional('read'),
        tags: ['solver'],
        summary: 'Is the game still winnable? (the badge)',
        description:
          'The same answer as the hint (verdict, and the next move of a winning line when `won`), for a ' +
          '"still winnable?" badge that asks after every move: it has its own, larger allowance ' +
          '(`WINNABLE_RATE_MAX` per minute), so the badge never uses up the hints. Positions on a winning line ' +
          'the solver already found for this game are answered without a search.',
        params: GameParamsSchema,
        response: { 200: HintResponseSchema, ...errors(400, 401, 403, 404, 429, 503) },
      },
    },
    async (req) => answer(req.params.id, req.player?.id ?? null, req.player?.id ?? req.ip),
  );
  return Promise.resolve();
};
