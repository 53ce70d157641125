/**
 * POST /api/games/import (issue 60 item 2): a game played offline in the browser, uploaded by its player —
 * attacked as a player who wants more than an honest upload: an illegal log (a card that is not there, an
 * undo after the resignation), the same upload twice, another player's token claiming the game, a token
 * without `game:play`, no token at all, an oversized log; and an imported game must not count anywhere
 * (statistics, history, the ranked board). The rules replayed are R14 (undo) and R13 (resignation).
 */
import {
  ErrorBodySchema,
  GameResponseSchema,
  HistoryPageSchema,
  ImportGameResponseSchema,
  MAX_IMPORT_ACTIONS,
  PlayerCreatedSchema,
  PlayerStatisticsSchema,
  ReplaySchema,
  type CreatedAccessToken,
  CreatedAccessTokenSchema,
} from '@klondike/protocol';
import {
  applyAction,
  dealFromNumber,
  legalMoves,
  newGame,
  resolveOptions,
  type GameAction,
  type PresetName,
} from '@klondike/rules';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

/** A legal offline log of deal `n`: `plies` first legal moves, one undo (R14), then a resignation (R13). */
function legalLog(n: number, preset: PresetName = 'classic-draw1', plies = 12): GameAction[] {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(d.error.message);
  let state = newGame(d.value, resolveOptions(preset, {}));
  const actions: GameAction[] = [];
  const play = (a: GameAction): void => {
    const r = applyAction(state, a);
    if (!r.ok) throw new Error(r.error.message);
    state = r.value;
    actions.push(a);
  };
  for (let i = 0; i < plies; i++) {
    const [move] = legalMoves(state);
    if (move === undefined) break;
    play({ type: 'move', move });
  }
  play({ type: 'undo' });
  play({ type: 'resign' });
  return actions;
}

function expectError(r: LightMyRequestResponse, status: number, code: string) {
  expect(r.statusCode, r.body).toBe(status);
  const body = ErrorBodySchema.parse(r.json());
  expect(body.error.code).toBe(code);
  return body.error;
}

describeEachDatabase('POST /api/games/import', (db) => {
  let app: FastifyInstance;
  let alice: Player;
  let bob: Player;
  beforeAll(async () => {
    app = await testApp(db);
    alice = await player('alice');
    bob = await player('bob');
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function player(name: string): Promise<Player> {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }
  function upload(token: string | undefined, payload: object): Promise<LightMyRequestResponse> {
    return app.inject({
      method: 'POST',
      url: '/api/games/import',
      payload,
      ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  }
  const counts = async () => ({ games: await app.prisma.game.count(), moves: await app.prisma.move.count() });

  it('a legal log is replayed and stored as the caller’s imported casual game, with its replay (R14, R13)', async () => {
    const actions = legalLog(11);
    const r = await upload(alice.token, {
      clientId: 'offline-a1',
      preset: 'classic-draw1',
      dealNumber: 11,
      actions,
    });
    expect(r.statusCode, r.body).toBe(201);
    const g = ImportGameResponseSchema.parse(r.json());
    expect(g).toMatchObject({ version: actions.length, status: 'resigned', created: true });
    const row = await app.prisma.game.findUniqueOrThrow({ where: { id: g.id } });
    expect(row).toMatchObject({ playerId: alice.id, importKey: 'offline-a1', dailyId: null, ranked: false });
    expect(row.raceCode).toBeNull();
    expect(Number(row.dealNumber)).toBe(11);
    // The server's rooms load it like any game, as a casual game of its deal number.
    const got = await app.inject({
      method: 'GET',
      url: `/api/games/${g.id}`,
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(got.statusCode, got.body).toBe(200);
    const view = GameResponseSchema.parse(got.json());
    expect(view).toMatchObject({
      kind: 'casual',
      dealNumber: 11,
      preset: 'classic-draw1',
      version: actions.length,
    });
    expect(view.view.status).toBe('resigned');
    // Its replay is public (resigned) and holds every action in order.
    const replay = await app.inject({ method: 'GET', url: `/api/games/${g.id}/replay` });
    expect(replay.statusCode, replay.body).toBe(200);
    const rp = ReplaySchema.parse(replay.json());
    expect(rp.steps.length).toBeGreaterThanOrEqual(actions.length);
    expect(JSON.stringify(rp.steps)).toContain('undo');
  });

  it('an illegal action is refused with 422 naming its index and rule, and nothing is stored', async () => {
    const good = legalLog(12, 'classic-draw1', 6);
    const before = await counts();
    // After the log's first six moves, an action the rules refuse: one that is not among the legal moves.
    const d = dealFromNumber(12);
    if (!d.ok) throw new Error('deal');
    let state = newGame(d.value, resolveOptions('classic-draw1', {}));
    for (const a of good.slice(0, 6)) {
      const n = applyAction(state, a);
      if (!n.ok) throw new Error('log');
      state = n.value;
    }
    const legal = JSON.stringify(legalMoves(state));
    const bad = [
      { type: 'move', move: { type: 'move', from: 'fS', to: 't1', count: 13 } },
      { type: 'move', move: { type: 'move', from: 'waste', to: 'fH', count: 1 } },
    ].find((a) => !legal.includes(JSON.stringify(a.move)));
    const actions = [...good.slice(0, 6), bad];
    const e = expectError(
      await upload(alice.token, {
        clientId: 'offline-bad',
        preset: 'classic-draw1',
        dealNumber: 12,
        actions,
      }),
      422,
      'illegal-move',
    );
    expect(e.version).toBe(6);
    expect(e.message).toContain('action 6');
    expect(e.reason).toBeDefined();
    // Nothing is played once the game is over: an undo after the resignation (R13) is refused at index 1.
    const noUndo = expectError(
      await upload(alice.token, {
        clientId: 'offline-bad2',
        preset: 'classic-draw1',
        dealNumber: 12,
        actions: [{ type: 'resign' }, { type: 'undo' }],
      }),
      422,
      'illegal-move',
    );
    expect(noUndo.reason).toBe('game-over');
    expect(noUndo.version).toBe(1);
    expect(await counts()).toEqual(before);
    expect(
      await app.prisma.game.count({ where: { importKey: { in: ['offline-bad', 'offline-bad2'] } } }),
    ).toBe(0);
  });

  it('the same upload twice stores one game; concurrent uploads too', async () => {
    const payload = {
      clientId: 'offline-twice',
      preset: 'classic-draw3',
      dealNumber: 13,
      actions: legalLog(13, 'classic-draw3'),
    };
    const first = ImportGameResponseSchema.parse((await upload(alice.token, payload)).json());
    const again = await upload(alice.token, payload);
    expect(again.statusCode, again.body).toBe(200);
    expect(ImportGameResponseSchema.parse(again.json())).toEqual({ ...first, created: false });
    const race = { ...payload, clientId: 'offline-race' };
    const answers = await Promise.all([
      upload(alice.token, race),
      upload(alice.token, race),
      upload(alice.token, race),
    ]);
    const ids = new Set(answers.map((a) => ImportGameResponseSchema.parse(a.json()).id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(
      await app.prisma.game.count({
        where: { playerId: alice.id, importKey: { in: ['offline-twice', 'offline-race'] } },
      }),
    ).toBe(2);
  });

  it('another player’s token cannot claim the game: the same client id gets their own, and the first stays alice’s', async () => {
    const payload = {
      clientId: 'offline-mine',
      preset: 'classic-draw1',
      dealNumber: 14,
      actions: legalLog(14).slice(0, 3),
    };
    const mine = ImportGameResponseSchema.parse((await upload(alice.token, payload)).json());
    expect(mine.status).toBe('playing');
    const theirs = await upload(bob.token, payload);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const t = ImportGameResponseSchema.parse(theirs.json());
    expect(t.id).not.toBe(mine.id);
    expect((await app.prisma.game.findUniqueOrThrow({ where: { id: mine.id } })).playerId).toBe(alice.id);
    // Alice's unfinished imported game takes only her moves.
    expectError(
      await app.inject({
        method: 'POST',
        url: `/api/games/${mine.id}/resign`,
        headers: { authorization: `Bearer ${bob.token}` },
      }),
      403,
      'forbidden',
    );
    const resign = await app.inject({
      method: 'POST',
      url: `/api/games/${mine.id}/resign`,
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { version: 3 },
    });
    expect(resign.statusCode, resign.body).toBe(200);
  });

  it('imported games count nowhere: statistics, history and the ranked board know none of them', async () => {
    const carol = await player('carol');
    const g = await upload(carol.token, {
      clientId: 'offline-c',
      preset: 'classic-draw1',
      dealNumber: 15,
      actions: legalLog(15),
    });
    expect(g.statusCode, g.body).toBe(201);
    const stats = PlayerStatisticsSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/players/${carol.id}/stats` })).json(),
    );
    expect(stats.total.games).toBe(0);
    expect(stats.presets).toEqual([]);
    const history = HistoryPageSchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: `/api/players/${carol.id}/games`,
          headers: { authorization: `Bearer ${carol.token}` },
        })
      ).json(),
    );
    expect(history.games).toEqual([]);
    expect(await app.prisma.dailyResult.count({ where: { playerId: carol.id } })).toBe(0);
    const board = await app.inject({ method: 'GET', url: '/api/leaderboard' });
    expect(board.body).not.toContain(carol.id);
  });

  describe('refusals change nothing', () => {
    const payload = { clientId: 'offline-x', preset: 'classic-draw1', dealNumber: 16, actions: legalLog(16) };

    it('no token → 401; a read-only personal token → 403 missing-scope', async () => {
      const before = await counts();
      expectError(await upload(undefined, payload), 401, 'unauthorized');
      const minted = await app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { authorization: `Bearer ${alice.token}` },
        payload: { name: 'reader', scopes: ['read'] },
      });
      expect(minted.statusCode, minted.body).toBe(201);
      const reader: CreatedAccessToken = CreatedAccessTokenSchema.parse(minted.json());
      const msg = expectError(await upload(reader.token, payload), 403, 'missing-scope');
      expect(msg.message).toContain('game:play');
      expectError(await upload('not-a-token', payload), 401, 'unknown-token');
      expect(await counts()).toEqual(before);
    });

    it('bad bodies → 400; too many actions → 400; an oversized body → 413', async () => {
      const before = await counts();
      expectError(await upload(alice.token, { ...payload, clientId: 'bad id!' }), 400, 'bad-request');
      expectError(await upload(alice.token, { ...payload, dealNumber: 0 }), 400, 'bad-request');
      expectError(await upload(alice.token, { ...payload, preset: 'nope' }), 400, 'bad-request');
      expectError(await upload(alice.token, { ...payload, extra: 1 }), 400, 'bad-request');
      expectError(
        await upload(alice.token, { ...payload, actions: [{ type: 'move', move: { type: 'teleport' } }] }),
        400,
        'bad-request',
      );
      const many = Array.from({ length: MAX_IMPORT_ACTIONS + 1 }, () => ({ type: 'undo' }));
      expectError(await upload(alice.token, { ...payload, actions: many }), 400, 'bad-request');
      const huge = Array.from({ length: MAX_IMPORT_ACTIONS }, () => ({
        type: 'move',
        move: { type: 'move', from: 't1', to: 't2', count: 1 },
        pad: 'x'.repeat(200),
      }));
      expectError(await upload(alice.token, { ...payload, actions: huge }), 413, 'body-too-large');
      expect(await counts()).toEqual(before);
    });
  });
});
