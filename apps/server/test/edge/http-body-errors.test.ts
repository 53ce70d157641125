/**
 * Issue 53 item 9(d): a body over the limit answers 413 `body-too-large` and a body of a media type the API
 * does not take answers 415 `bad-media-type`, both with the usual `{"error":{"code","message"}}`
 * body, and neither changes anything. Written as the caller who sends them: an oversized move, a form-encoded
 * move, a text/plain move, an XML game.
 */
import { ErrorBodySchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app.js';
import { describeEachDatabase, testApp } from '../support/helpers.js';

describeEachDatabase('body limit and media type', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  async function newGame(): Promise<string> {
    const r = await app.inject({ method: 'POST', url: '/api/games', payload: { dealNumber: 3 } });
    expect(r.statusCode, r.body).toBe(201);
    return r.json<{ id: string }>().id;
  }

  async function version(id: string): Promise<number> {
    return (await app.inject({ method: 'GET', url: `/api/games/${id}` })).json<{ version: number }>().version;
  }

  function expectError(r: { statusCode: number; body: string }, status: number, code: string): void {
    expect(r.statusCode, r.body).toBe(status);
    const body = ErrorBodySchema.parse(JSON.parse(r.body));
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(0);
  }

  it(`a move body over ${BODY_LIMIT} bytes → 413 body-too-large; the game is unchanged`, async () => {
    const id = await newGame();
    const payload = JSON.stringify({ move: { type: 'draw' }, version: 0, pad: 'x'.repeat(BODY_LIMIT) });
    const r = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expectError(r, 413, 'body-too-large');
    expect(await version(id)).toBe(0);
  });

  it('a move sent form-encoded or as text/plain → 415 bad-media-type; the game is unchanged', async () => {
    const id = await newGame();
    const form = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'move=draw&version=0',
    });
    expectError(form, 415, 'bad-media-type');
    const text = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ move: { type: 'draw' }, version: 0 }),
    });
    expectError(text, 415, 'bad-media-type');
    expect(await version(id)).toBe(0);
  });

  it('a new game asked for in XML → 415 bad-media-type', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/xml' },
      payload: '<game dealNumber="3"/>',
    });
    expectError(r, 415, 'bad-media-type');
  });

  it('JSON with a charset is still taken', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ dealNumber: 3 }),
    });
    expect(r.statusCode, r.body).toBe(201);
  });

  it('the OpenAPI document lists 413 and 415 for an operation that takes a body, not for one without', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    const create = doc.paths['/api/games']?.post?.responses ?? {};
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['413', '415']));
    const read = doc.paths['/api/games/{id}']?.get?.responses ?? {};
    expect(Object.keys(read)).not.toContain('413');
  });
});
