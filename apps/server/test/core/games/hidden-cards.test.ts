/**
 * Hidden information never leaves the server: across many random games (fixed seed), played through REST
 * and WebSocket with legal and illegal moves, undos, stale versions and resignations, no response body and
 * no frame contains the code of a card that is face down or in the stock at that moment (computed from the
 * server-side state through the game-room service and the rules package's `hiddenCards`).
 */
import { GameResponseSchema, LegalMovesResponseSchema } from '@klondike/protocol';
import { MAX_DEAL_NUMBER, PILE_IDS, PRESET_NAMES, type Move, hiddenCards } from '@klondike/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClient, leakedCards, prng, testApp, wsUrl } from '../../support/helpers.js';

const GAMES = 16;
const ACTIONS = 70;

describe('hidden cards never leave the server [PGlite]', () => {
  let app: FastifyInstance;
  let ws: WsClient;
  beforeAll(async () => {
    app = await testApp({
      kind: 'pglite',
      config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
      cleanup: async () => {},
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    ws = await WsClient.connect(wsUrl(app));
  });
  afterAll(async () => {
    ws.close();
    await app.close();
  });

  it(`${GAMES} random games × ${ACTIONS} actions over REST (POST /api/games, GET /api/games/:id, moves, undo, resign, legal-moves, deal) and WS: no hidden card in any body or frame`, async () => {
    const rand = prng(0x5eed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    let checks = 0;
    let hiddenSeen = 0;
    const check = (text: string, gameId: string, what: string): void => {
      const state = app.rooms.peekState(gameId);
      if (!state) throw new Error(`game ${gameId} not in memory`);
      const hidden = hiddenCards(state);
      hiddenSeen += hidden.length;
      checks++;
      expect(leakedCards(text, hidden), `${what}: ${text}`).toEqual([]);
    };
    let frameIndex = 0;
    const checkNewFrames = (gameId: string): void => {
      for (; frameIndex < ws.texts.length; frameIndex++)
        check(ws.texts[frameIndex] as string, gameId, 'frame');
    };

    let requestNo = 0;
    for (let g = 0; g < GAMES; g++) {
      const preset = PRESET_NAMES[g % PRESET_NAMES.length];
      const dealNumber = 1 + Math.floor(rand() * MAX_DEAL_NUMBER);
      const created = await app.inject({
        method: 'POST',
        url: '/api/games',
        payload: { preset, dealNumber },
      });
      expect(created.statusCode).toBe(201);
      const id = GameResponseSchema.parse(created.json()).id;
      check(created.body, id, 'POST /api/games');
      await ws.request({ type: 'subscribe', gameId: id }, (f) => f.type === 'state' && f.gameId === id);
      checkNewFrames(id);
      for (let a = 0; a < ACTIONS; a++) {
        const legalRes = await app.inject({ method: 'GET', url: `/api/games/${id}/legal-moves` });
        check(legalRes.body, id, 'legal-moves');
        const legal = LegalMovesResponseSchema.parse(legalRes.json());
        const version = legal.version;
        const r = rand();
        let kind: 'move' | 'undo' | 'resign' = 'move';
        let move: Move | undefined = legal.moves.length > 0 ? pick(legal.moves) : undefined;
        let sendVersion = version;
        if (r < 0.1) kind = 'undo';
        else if (r < 0.15)
          move = {
            type: 'move',
            from: pick(PILE_IDS),
            to: pick(PILE_IDS),
            count: 1 + Math.floor(rand() * 3),
          };
        else if (r < 0.18) sendVersion = version + (rand() < 0.5 ? -1 : 2);
        if (a === ACTIONS - 1 && rand() < 0.5) kind = 'resign';
        if (kind === 'move' && move === undefined) kind = 'resign';
        if (sendVersion < 0) sendVersion = 0;

        if (rand() < 0.5) {
          // REST
          const res =
            kind === 'move'
              ? await app.inject({
                  method: 'POST',
                  url: `/api/games/${id}/moves`,
                  payload: { move, version: sendVersion },
                })
              : await app.inject({
                  method: 'POST',
                  url: `/api/games/${id}/${kind}`,
                  payload: { version: sendVersion },
                });
          check(res.body, id, `POST ${kind}`);
          if (res.statusCode === 200) {
            const v = res.json<{ version: number }>().version;
            await ws.waitFor((f) => f.type === 'state' && f.gameId === id && f.version === v, frameIndex);
          }
        } else {
          const requestId = `q${++requestNo}`;
          const frame =
            kind === 'move'
              ? { type: 'move', gameId: id, move, version: sendVersion, requestId }
              : { type: kind, gameId: id, version: sendVersion, requestId };
          await ws.request(frame, (f) => 'requestId' in f && f.requestId === requestId);
        }
        checkNewFrames(id);
        if (a % 10 === 0)
          check(
            (await app.inject({ method: 'GET', url: `/api/games/${id}` })).body,
            id,
            'GET /api/games/:id',
          );
        const deal = await app.inject({ method: 'GET', url: `/api/games/${id}/deal` });
        if (deal.statusCode === 403) check(deal.body, id, 'deal (403)');
        const status = GameResponseSchema.parse(
          (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json(),
        ).view.status;
        if (status === 'won' || status === 'resigned') break;
      }
      ws.send({ type: 'unsubscribe', gameId: id });
    }
    expect(checks).toBeGreaterThan(GAMES * ACTIONS);
    expect(hiddenSeen / checks).toBeGreaterThan(5); // the check had hidden cards to look for
  }, 120_000);
});
