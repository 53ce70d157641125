/** docker-compose.yml wires the app to its database, publishes only the app, and takes secrets from .env. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const ROOT = resolve(import.meta.dirname, '../../..');

const ComposeSchema = z.object({
  services: z.object({
    db: z.object({
      image: z.string(),
      ports: z.array(z.string()).optional(),
      environment: z.record(z.string(), z.string()),
    }),
    app: z.object({
      build: z.object({ context: z.string(), dockerfile: z.string() }),
      ports: z.array(z.string()),
      environment: z.record(z.string(), z.string()),
      depends_on: z.record(z.string(), z.unknown()),
    }),
  }),
});

/** Compose's `${NAME:?message}` / `${NAME:-default}` interpolation, with `env` as the .env file. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g,
    (_m, name: string, op?: string, arg?: string) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (op === '?') throw new Error(`required variable ${name}: ${arg}`);
      return op === '-' ? (arg ?? '') : '';
    },
  );
}

/** The variables of an env file (`NAME=value` lines). */
function envFile(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1] as string] = m[2] as string;
  }
  return out;
}

describe('docker-compose.yml', () => {
  const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
  const example = envFile(resolve(ROOT, '.env.example'));

  it('refuses to start without the secrets of .env', () => {
    expect(() => interpolate(text, {})).toThrow(/POSTGRES_PASSWORD/);
    expect(() => interpolate(text, { POSTGRES_PASSWORD: 'x' })).toThrow(/DAILY_SECRET/);
  });

  it('holds no password in the file, and .env.example names every secret', () => {
    expect(text).not.toMatch(/POSTGRES_PASSWORD:\s*[a-z]/);
    expect(Object.keys(example)).toEqual(expect.arrayContaining(['POSTGRES_PASSWORD', 'DAILY_SECRET']));
    expect(readFileSync(resolve(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('.env');
  });

  const compose = ComposeSchema.parse(parse(interpolate(text, example)));

  it('publishes only the app: Postgres is reachable on the compose network alone', () => {
    expect(compose.services.db.ports ?? []).toEqual([]);
    expect(compose.services.app.ports).toEqual(['3000:3000']);
  });

  it('app: built from ./Dockerfile, DATABASE_URL pointing at the db service with the .env password, after db', () => {
    const app = compose.services.app;
    expect(app.build.context).toBe('.');
    expect(existsSync(resolve(ROOT, app.build.context, app.build.dockerfile))).toBe(true);
    const url = new URL(app.environment.DATABASE_URL ?? '');
    expect(url.protocol).toBe('postgresql:');
    expect(url.hostname).toBe('db');
    expect(url.port).toBe('5432');
    expect(url.username).toBe(compose.services.db.environment.POSTGRES_USER);
    expect(url.password).toBe(example.POSTGRES_PASSWORD);
    expect(compose.services.db.environment.POSTGRES_PASSWORD).toBe(example.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${compose.services.db.environment.POSTGRES_DB}`);
    expect(app.environment.DAILY_SECRET).toBe(example.DAILY_SECRET);
    expect(Object.keys(app.depends_on)).toContain('db');
  });
});

describe('docker-compose.yml, profile cluster', () => {
  const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
  const env = {
    ...envFile(resolve(ROOT, '.env.example')),
    REDIS_URL: 'redis://redis:6379',
    TRUST_PROXY: '1',
  };
  const ClusterSchema = z.object({
    services: z.object({
      app: z.object({ environment: z.record(z.string(), z.string()) }),
      app2: z.object({
        profiles: z.array(z.string()),
        environment: z.record(z.string(), z.string()),
        ports: z.array(z.string()).optional(),
      }),
      redis: z.object({ profiles: z.array(z.string()), ports: z.array(z.string()).optional() }),
      proxy: z.object({
        profiles: z.array(z.string()),
        ports: z.array(z.string()),
        volumes: z.array(z.string()),
        depends_on: z.array(z.string()),
      }),
    }),
  });
  const compose = ClusterSchema.parse(parse(interpolate(text, env)));
  const nginx = readFileSync(resolve(ROOT, 'deploy/nginx.conf'), 'utf8');

  it('two app nodes on the same Postgres and Redis, behind the proxy; only the proxy and app are published', () => {
    const { app, app2, redis, proxy } = compose.services;
    for (const s of [app2, redis, proxy]) expect(s.profiles).toEqual(['cluster']);
    expect(app2.environment).toEqual(app.environment);
    expect(app2.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(app2.ports ?? []).toEqual([]);
    expect(redis.ports ?? []).toEqual([]);
    expect(proxy.ports).toEqual(['8080:80']);
    expect(proxy.depends_on.sort()).toEqual(['app', 'app2']);
    expect(proxy.volumes).toEqual(['./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
  });

  it('without REDIS_URL the app runs alone (an empty REDIS_URL is no Redis)', () => {
    const single = ClusterSchema.shape.services.shape.app.parse(
      (parse(interpolate(text, envFile(resolve(ROOT, '.env.example')))) as { services: { app: unknown } })
        .services.app,
    );
    expect(single.environment.REDIS_URL).toBe('');
  });

  it('the proxy spreads over both nodes and passes WebSocket upgrades', () => {
    expect(nginx).toMatch(/upstream klondike \{[^}]*server app:3000;[^}]*server app2:3000;/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(nginx).not.toMatch(/non_idempotent/); // a move (POST) is never sent twice
  });
});

// The Dockerfile itself is not tested here: matching its text cannot tell a broken image from a working one,
// and no Docker engine runs on the CI machines to build it.
