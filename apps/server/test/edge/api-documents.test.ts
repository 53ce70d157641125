/**
 * The published API documents and the headers they promise:
 * - the OpenAPI document (/docs/json) passes the repository's Redocly configuration, and a copy missing an
 *   operationId or an operation's security fails it (what `pnpm lint` runs);
 * - the AsyncAPI document (/docs/asyncapi.json) validates with @asyncapi/parser and holds every frame type
 *   and error code of @klondike/protocol;
 * - RateLimit headers on counted answers, Retry-After on 429s (the global limit and a bot's own).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Diagnostic, Parser } from '@asyncapi/parser';
import { API_ERROR_CODES, ClientFrameSchema, ServerFrameSchema } from '@klondike/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncApiDocument } from '../../src/edge/api-docs/asyncapi.js';
import { MODULES } from '../../src/edge/modules.js';
import { pgliteDatabase, testApp } from '../support/helpers.js';

const REPO = resolve(import.meta.dirname, '../../../..');
const REDOCLY = join(REPO, 'node_modules/.bin/redocly');

interface LintResult {
  readonly ok: boolean;
  readonly output: string;
}

/** Runs `redocly lint` with the repository's redocly.yaml on `file`. */
async function redoclyLint(file: string): Promise<LintResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(REDOCLY, ['lint', file, '--format=stylish'], {
      cwd: REPO,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return { ok: true, output: stdout + stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

type Operation = { operationId?: string; security?: unknown };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

describe('the published API documents', () => {
  let app: FastifyInstance;
  let dir: string;
  let openapi: OpenApi;
  beforeAll(async () => {
    app = await testApp(pgliteDatabase());
    dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
    openapi = (await app.inject({ method: 'GET', url: '/docs/json' })).json<OpenApi>();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes a copy of the OpenAPI document with `change` applied to its POST /api/games/{id}/moves. */
  function brokenCopy(name: string, change: (op: Operation) => void): string {
    const copy = structuredClone(openapi);
    const op = copy.paths['/api/games/{id}/moves']?.post;
    if (op === undefined) throw new Error('no POST /api/games/{id}/moves in the document');
    change(op);
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(copy));
    return file;
  }

  it('OpenAPI: every operation has an operationId and declares its security; Redocly finds nothing', async () => {
    const ops = Object.values(openapi.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(Array.isArray(op.security)).toBe(true);
    }
    const ids = ops.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['createGame', 'playMove', 'getDailyLeaderboard', 'createRace']),
    );

    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(openapi));
    const clean = await redoclyLint(file);
    expect(clean.output).toContain('valid');
    expect(clean.ok, clean.output).toBe(true);
  });

  it('OpenAPI: the lint fails for an operation without operationId, or without security', async () => {
    const noId = await redoclyLint(
      brokenCopy('no-operation-id.json', (op) => {
        delete op.operationId;
      }),
    );
    expect(noId.ok).toBe(false);
    expect(noId.output).toContain('operation-operationId');

    const noSecurity = await redoclyLint(
      brokenCopy('no-security.json', (op) => {
        delete op.security;
      }),
    );
    expect(noSecurity.ok).toBe(false);
    expect(noSecurity.output).toContain('rule/operation-security-declared');
  });

  it('AsyncAPI: /docs/asyncapi.json validates with no error and holds every frame type and error code', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/docs/asyncapi.json',
      headers: { host: 'play.example.test:8443' },
    });
    expect(r.statusCode).toBe(200);
    const parsed = await new Parser().parse(r.body);
    // Spectral severities: 0 error, 1 warning (2 information, 3 hint). Typed as the diagnostics' own enum: the
    // parser re-exports a DiagnosticSeverity from another copy of @stoplight/types.
    const warning: Diagnostic['severity'] = 1;
    const problems = parsed.diagnostics.filter((d) => d.severity <= warning);
    expect(problems.map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`)).toEqual([]);
    const doc = parsed.document;
    if (doc === undefined) throw new Error('the parser returned no document');
    expect(doc.version()).toMatch(/^3\./);
    expect(doc.servers().all()[0]?.host()).toBe('play.example.test:8443');

    // Every frame type of the protocol is a message whose payload pins that `type`.
    const payloadType = new Map<string, unknown>();
    for (const m of doc.allMessages().all()) {
      const type: unknown = m.payload()?.properties()?.type?.const();
      payloadType.set(m.name() ?? '', type);
    }
    const frameTypes = [...ClientFrameSchema.options, ...ServerFrameSchema.options].map(
      (o) => o.shape.type.value,
    );
    for (const type of frameTypes) expect(payloadType.get(type), type).toBe(type);
    expect(payloadType.size).toBe(frameTypes.length);

    // The server receives each client frame and answers through `reply`; the error frame has every code.
    const receive = doc
      .operations()
      .filterByReceive()
      .flatMap((op) =>
        op
          .messages()
          .all()
          .map((m) => m.name()),
      );
    expect(receive.sort()).toEqual(ClientFrameSchema.options.map((o) => o.shape.type.value).sort());
    const auth = doc.operations().get('authenticate');
    expect(
      auth
        ?.reply()
        ?.messages()
        .all()
        .map((m) => m.name()),
    ).toEqual(['authed', 'error']);
    const errorCodes = doc.messages().get('error')?.payload()?.properties()?.code?.enum();
    expect(errorCodes).toEqual([...API_ERROR_CODES]);
  });

  it('AsyncAPI: each module documents its own frames; a frame nobody documents, or two modules document, fails', () => {
    const here = { host: 'localhost:3000', secure: false };
    const docs = MODULES.map((m) => m.frames);
    expect(() => asyncApiDocument(here, docs)).not.toThrow();
    // The races' module dropped: its frames have no documentation left, and the document says which.
    const withoutRaces = MODULES.filter((m) => m.name !== 'races').map((m) => m.frames);
    expect(() => asyncApiDocument(here, withoutRaces)).toThrow(
      /frames without documentation: race-subscribe, race-unsubscribe, race, race-progress/,
    );
    const races = MODULES.find((m) => m.name === 'races')?.frames;
    expect(() => asyncApiDocument(here, [...docs, races])).toThrow(
      /client frame race-subscribe is documented twice/,
    );
  });

  it('/docs links the AsyncAPI document', async () => {
    const info = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      info: { description: string };
    }>().info;
    expect(info.description).toContain('(/docs/asyncapi.json)');
  });
});

describe('rate-limit headers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(pgliteDatabase(), {
      config: { rateLimitMax: 3, rateLimitWindowMs: 60_000, botRateLimitMax: 1, solveRateMax: 7 },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('RateLimit-* on counted answers, Retry-After on a 429; the route’s own quota in RateLimit-Policy', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/games/nope123', remoteAddress: '10.9.0.1' });
    expect(first.statusCode).toBe(404);
    expect(first.headers['ratelimit-policy']).toBe('3;w=60');
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++)
      await app.inject({ method: 'GET', url: '/api/games/nope123', remoteAddress: '10.9.0.1' });
    const refused = await app.inject({ method: 'GET', url: '/api/games/nope123', remoteAddress: '10.9.0.1' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'rate-limited' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');

    const solve = await app.inject({
      method: 'POST',
      url: '/api/solve',
      payload: { dealNumber: 1, timeLimitMs: 50 },
      remoteAddress: '10.9.0.2',
    });
    expect(solve.headers['ratelimit-policy']).toBe('7;w=60');
    const health = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.9.0.1' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['ratelimit-policy']).toBeUndefined();
  });

  it('a bot over its own limit gets 429 with Retry-After', async () => {
    const bot = await app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { name: 'Header Bot', bot: true },
      remoteAddress: '10.9.0.3',
    });
    expect(bot.statusCode).toBe(201);
    const auth = { authorization: `Bearer ${bot.json<{ token: string }>().token}` };
    const ok = await app.inject({ method: 'GET', url: '/api/me', headers: auth, remoteAddress: '10.9.0.4' });
    expect(ok.statusCode).toBe(200);
    const over = await app.inject({
      method: 'GET',
      url: '/api/me',
      headers: auth,
      remoteAddress: '10.9.0.5',
    });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});
