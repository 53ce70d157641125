/**
 * A player's settings on the server (issue 12, item 4): `Player.settings`, read with GET /api/me and changed
 * with PATCH /api/me {"settings": {...}} — merged key by key, validated strictly (unknown keys or values → 400
 * and nothing stored), on PGlite and on Postgres.
 */
import { DEFAULT_SETTINGS, ErrorBodySchema, MeSchema, PlayerCreatedSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSettings } from '../../src/features/players/players.js';
import { describeEachDatabase, testApp } from '../support/helpers.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDatabase('player settings', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  let n = 0;
  async function create(): Promise<{ id: string; token: string }> {
    const r = await app.inject({ method: 'POST', url: '/api/players', payload: { name: `Setter ${++n}` } });
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }
  async function me(token: string) {
    const r = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(r.statusCode, r.body).toBe(200);
    return MeSchema.parse(r.json());
  }
  const patch = (token: string, payload: unknown) =>
    app.inject({ method: 'PATCH', url: '/api/me', headers: bearer(token), payload: payload as object });

  it('a new player has no stored settings (every one the default)', async () => {
    const p = await create();
    expect((await me(p.token)).settings).toEqual({});
  });

  it('PATCH merges the keys sent into the stored ones and GET returns them', async () => {
    const p = await create();
    const r1 = await patch(p.token, { settings: { cardBack: 'crimson', leftHanded: true } });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(MeSchema.parse(r1.json()).settings).toEqual({ cardBack: 'crimson', leftHanded: true });
    const r2 = await patch(p.token, { settings: { tableColour: 'blue', leftHanded: false } });
    expect(r2.statusCode, r2.body).toBe(200);
    expect((await me(p.token)).settings).toEqual({
      cardBack: 'crimson',
      tableColour: 'blue',
      leftHanded: false,
    });
    const row = await app.prisma.player.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.settings).toEqual({ cardBack: 'crimson', tableColour: 'blue', leftHanded: false });
  });

  it('every setting round-trips', async () => {
    const p = await create();
    const all = {
      ...DEFAULT_SETTINGS,
      theme: 'dark',
      sounds: true,
      motion: 'reduce',
      autoFoundation: true,
    } as const;
    expect((await patch(p.token, { settings: all })).statusCode).toBe(200);
    expect((await me(p.token)).settings).toEqual(all);
  });

  it('two changes at once both stay (the merge is one statement)', async () => {
    const p = await create();
    const [a, b] = await Promise.all([
      patch(p.token, { settings: { sounds: true } }),
      patch(p.token, { settings: { theme: 'dark' } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await me(p.token)).settings).toEqual({ sounds: true, theme: 'dark' });
  });

  it('a name and settings in one request', async () => {
    const p = await create();
    const r = await patch(p.token, { name: `Renamed ${n}`, settings: { sounds: true } });
    expect(r.statusCode, r.body).toBe(200);
    const body = MeSchema.parse(r.json());
    expect(body.name).toBe(`Renamed ${n}`);
    expect(body.settings).toEqual({ sounds: true });
  });

  it.each([
    ['an unknown setting', { settings: { cardBack: 'forest', volume: 11 } }],
    ['an unknown value', { settings: { cardBack: 'plaid' } }],
    ['a wrong type', { settings: { sounds: 'yes' } }],
    ['an unknown top-level key', { settings: { sounds: true }, colour: 'red' }],
    ['settings that are not an object', { settings: ['sounds'] }],
    ['an empty body', {}],
  ])('400 for %s, and nothing is stored', async (_what, payload) => {
    const p = await create();
    expect((await patch(p.token, { settings: { cardBack: 'midnight' } })).statusCode).toBe(200);
    const r = await patch(p.token, payload);
    expect(r.statusCode, r.body).toBe(400);
    expect(ErrorBodySchema.parse(r.json()).error.code).toBeTruthy();
    expect((await me(p.token)).settings).toEqual({ cardBack: 'midnight' });
  });

  it('401 without a token', async () => {
    const r = await app.inject({ method: 'PATCH', url: '/api/me', payload: { settings: { sounds: true } } });
    expect(r.statusCode).toBe(401);
  });

  it('settings stored by another version (unknown keys, old values) are dropped when read, not an error', async () => {
    const p = await create();
    await app.prisma.player.update({
      where: { id: p.id },
      data: { settings: { cardBack: 'plaid', sounds: true, retired: 1 } },
    });
    expect((await me(p.token)).settings).toEqual({ sounds: true });
  });
});

describe('storedSettings', () => {
  it('keeps known keys with valid values only', () => {
    expect(storedSettings({ theme: 'dark', leftHanded: 'no', x: 1 })).toEqual({ theme: 'dark' });
    expect(storedSettings(null)).toEqual({});
    expect(storedSettings([1, 2])).toEqual({});
    expect(storedSettings('dark')).toEqual({});
  });
});
