/**
 * Test helpers: a server per test file on PGlite (in memory) and, when TEST_DATABASE_URL is set, on
 * Postgres in a schema of its own; the winnable deal; a seeded PRNG; a WebSocket client.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlayerCreatedSchema, ServerFrameSchema, type ServerFrame } from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { describe, inject } from 'vitest';
import WebSocket from 'ws';
import { type BuildAppOptions, buildApp } from '../../src/app.js';
import type { AppConfig } from '../../src/infra/config.js';
import { splitSchemaParam } from '../../src/infra/db/database.js';
import { DEFAULT_MIGRATIONS_DIR } from '../../src/infra/db/migrator.js';

/**
 * Postgres for tests: `TEST_DATABASE_URL`, else the standard local server's `klondike_test` database
 * (test/support/services.ts finds it in the global setup); undefined where none answered (PGlite only).
 */
export const TEST_DATABASE_URL: string | undefined = inject('testDatabaseUrl') ?? undefined;
/** Redis for the multi-node tests: `TEST_REDIS_URL`, else `redis://127.0.0.1:6379`; undefined where none answered. */
export const TEST_REDIS_URL: string | undefined = inject('testRedisUrl') ?? undefined;

/** A database the tests of one file run on. */
export interface TestDatabase {
  /** `pglite` or `postgres`. */
  readonly kind: 'pglite' | 'postgres';
  /** Config fields pointing a new server at a fresh database (a new schema on Postgres). */
  config(): Pick<AppConfig, 'databaseUrl' | 'dataDir'>;
  /** Drops every Postgres schema `config()` handed out. */
  cleanup(): Promise<void>;
}

/** Adds `?schema=NAME` to a Postgres URL. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** Drops a test schema (and everything in it). */
export async function dropSchema(urlWithSchema: string): Promise<void> {
  const { url, schema } = splitSchemaParam(urlWithSchema);
  if (schema === undefined) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Two test files dropping their schemas at once can deadlock on the shared catalogs (40P01): retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== '40P01' || attempt >= 5) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await client.end();
  }
}

/** A fresh schema name for a test. */
export function testSchemaName(): string {
  return `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** An in-memory PGlite database for one test server (nothing to clean up). */
export function pgliteDatabase(): TestDatabase {
  return {
    kind: 'pglite',
    config: () => ({ databaseUrl: undefined, dataDir: 'memory://' }),
    cleanup: async () => {},
  };
}

function postgresDatabase(baseUrl: string): TestDatabase {
  const urls: string[] = [];
  return {
    kind: 'postgres',
    config: () => {
      const url = withSchema(baseUrl, testSchemaName());
      urls.push(url);
      return { databaseUrl: url, dataDir: 'memory://' };
    },
    cleanup: async () => {
      for (const url of urls.splice(0)) await dropSchema(url);
    },
  };
}

/**
 * Declares the same suite on PGlite and on Postgres. The Postgres variant needs a Postgres server
 * (TEST_DATABASE_URL, else the standard local one); where none answers there is nothing to run against,
 * so that variant is skipped (PGlite still runs) and the summary of `pnpm test` names it.
 */
export function describeEachDatabase(title: string, body: (db: TestDatabase) => void): void {
  describe(`${title} [PGlite]`, () => body(pgliteDatabase()));
  // Skipped where no Postgres answered (test/support/services.ts): nothing to talk to; the summary says so.
  describe.skipIf(TEST_DATABASE_URL === undefined)(`${title} [Postgres]`, () =>
    body(postgresDatabase(TEST_DATABASE_URL ?? 'postgresql://unused')),
  );
}

/**
 * Builds a quiet test server on `db` (rate limits off, no web client unless configured; one solver thread;
 * the daily job off — dailies are made on first use — with no archive and a 300 ms solver limit per
 * candidate, so generating them stays fast; the fair-play signals' and the puzzles' passes off: a test calls
 * `app.signals.sweep()`, `app.puzzles.sweep()`).
 */
export async function testApp(db: TestDatabase, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  return buildApp({
    env: {},
    ...options,
    config: {
      logLevel: 'silent',
      rateLimitMax: 0,
      wsFramesPerSecond: 0,
      webDist: '/nonexistent-web-dist',
      solverThreads: 1,
      dailySchedule: false,
      dailyArchiveDays: 0,
      dailySolveMs: 300,
      signalsSweepMs: 0,
      puzzlesSweepMs: 0,
      ...db.config(),
      ...options.config,
    },
  });
}

/** A seeded PRNG of floats in [0, 1) (the rules package's test generator). */
export { testRandom as prng } from '@klondike/rules/testing';

/** Every `"XX"` card code (quoted, as JSON writes it) of `hidden` that occurs in `text`. */
export function leakedCards(text: string, hidden: readonly string[]): string[] {
  return hidden.filter((code) => text.includes(`"${code}"`));
}

/**
 * One request to `app` without a network (`app.inject`), with `token` as `Authorization: Bearer <token>` and
 * `payload` as the JSON body when given.
 */
export function injectAs(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token?: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** A new player named `name` (`POST /api/players`): its id, name and sign-in token. Throws unless 201. */
export async function newPlayer(
  app: FastifyInstance,
  name: string,
): Promise<ReturnType<typeof PlayerCreatedSchema.parse>> {
  const r = await injectAs(app, 'POST', '/api/players', undefined, { name });
  if (r.statusCode !== 201) throw new Error(`POST /api/players answered ${r.statusCode}: ${r.body}`);
  return PlayerCreatedSchema.parse(r.json());
}

/** A WebSocket test client that validates and collects every server frame. */
export class WsClient {
  /** Every frame received, in order, as parsed objects. */
  readonly frames: ServerFrame[] = [];
  /** Every frame received, as raw text. */
  readonly texts: string[] = [];
  private waiters: {
    pred: (f: ServerFrame) => boolean;
    resolve: (f: ServerFrame) => void;
    reject: (e: Error) => void;
    from: number;
  }[] = [];
  /** Close code once closed. */
  closeCode: number | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: WebSocket.RawData) => {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      this.texts.push(text);
      const frame = ServerFrameSchema.parse(JSON.parse(text));
      this.frames.push(frame);
      this.check();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const w of this.waiters.splice(0)) w.reject(new Error(`socket closed (${code})`));
    });
  }

  /** Connects to `ws://host:port/api/ws`. */
  static async connect(url: string): Promise<WsClient> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsClient(socket);
  }

  private check(): void {
    for (const w of [...this.waiters]) {
      const found = this.frames.slice(w.from).find(w.pred);
      if (found) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(found);
      }
    }
  }

  /** Sends a frame (an object is JSON-encoded; a string is sent as is). */
  send(frame: object | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Resolves with the first frame (received from index `from` on, default: any) matching `pred`. */
  waitFor(pred: (f: ServerFrame) => boolean, from = 0, timeoutMs = 5000): Promise<ServerFrame> {
    const found = this.frames.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      this.waiters.push({
        pred,
        from,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /** Sends a frame and waits for the next frame (after it) matching `pred`. */
  request(frame: object | string, pred: (f: ServerFrame) => boolean): Promise<ServerFrame> {
    const from = this.frames.length;
    this.send(frame);
    return this.waitFor(pred, from);
  }

  /** Waits until the socket is closed; resolves with the close code. */
  closed(timeoutMs = 5000): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
      this.socket.once('close', (code: number) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** Closes the socket. */
  close(): void {
    this.socket.close();
  }
}

/** The ws:// URL of a listening app. */
export function wsUrl(app: FastifyInstance): string {
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${addr.port}/api/ws`;
}

/**
 * A temporary copy of the repository's migrations folder holding only the migrations named before `name`
 * (`<timestamp>_<words>`, compared as text), for a test that applies them, writes rows of the old shape and
 * then applies `name`. Errors: throws when `name` is undefined (the migration the test is about is missing).
 * The caller removes the folder (`rmSync(dir, { recursive: true, force: true })`).
 */
export function migrationsBefore(name: string | undefined): string {
  if (name === undefined) throw new Error('the migration under test is missing from prisma/migrations');
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, {
    recursive: true,
    filter: (src) => !/\/\d{14}_[a-z0-9_]+$/.test(src) || (src.split('/').pop() ?? '') < name,
  });
  return dir;
}
