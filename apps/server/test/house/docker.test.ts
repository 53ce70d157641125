/**
 * docker-compose.yml wires the app nodes to their database behind nginx, publishes nginx's port alone (so the
 * one hop the nodes trust is the only way in), checks each node's health on /api/ready, and takes secrets from
 * .env; deploy/nginx.conf, the compose comments and docs/deploy.md say the same thing. The image itself is
 * tested in dockerfile.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const ROOT = resolve(import.meta.dirname, '../../../..');

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

const ServiceSchema = z.object({
  image: z.string().optional(),
  build: z.object({ context: z.string(), dockerfile: z.string() }).optional(),
  profiles: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z
    .record(z.string(), z.object({ condition: z.string(), required: z.boolean().optional() }))
    .optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  volumes: z.array(z.string()).optional(),
});
const ComposeSchema = z.object({ services: z.record(z.string(), ServiceSchema) });
type Service = z.infer<typeof ServiceSchema>;

const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
const example = envFile(resolve(ROOT, '.env.example'));
/** The compose file as Compose reads it with `env` as .env (YAML merge keys resolved). */
const composeWith = (env: Record<string, string>) =>
  ComposeSchema.parse(parse(interpolate(text, env), { merge: true })).services;
/** The services a profile (or none) starts: those without profiles, and those of the profile. */
const started = (services: Record<string, Service>, profile?: string) =>
  Object.entries(services).filter(
    ([, s]) => s.profiles === undefined || (profile !== undefined && s.profiles.includes(profile)),
  );

describe('docker-compose.yml', () => {
  const services = composeWith(example);

  it('refuses to start without the secrets of .env', () => {
    expect(() => interpolate(text, {})).toThrow(/POSTGRES_PASSWORD/);
    expect(() => interpolate(text, { POSTGRES_PASSWORD: 'x' })).toThrow(/DAILY_SECRET/);
  });

  it('holds no password in the file, and .env.example names every secret', () => {
    expect(text).not.toMatch(/POSTGRES_PASSWORD:\s*[a-z]/);
    expect(Object.keys(example)).toEqual(expect.arrayContaining(['POSTGRES_PASSWORD', 'DAILY_SECRET']));
    expect(readFileSync(resolve(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('.env');
  });

  for (const profile of [undefined, 'cluster']) {
    it(`publishes nginx's port alone${profile ? ` (profile ${profile})` : ''}: no node, database or Redis port`, () => {
      const published = started(services, profile).filter(([, s]) => (s.ports ?? []).length > 0);
      expect(published.map(([name, s]) => [name, s.ports])).toEqual([['proxy', ['3000:80']]]);
    });
  }

  it('app: built from ./Dockerfile, DATABASE_URL pointing at the db service with the .env password, after db', () => {
    const app = services.app as Service;
    const db = services.db as Service;
    expect(app.build?.context).toBe('.');
    expect(existsSync(resolve(ROOT, app.build?.context ?? '', app.build?.dockerfile ?? ''))).toBe(true);
    const url = new URL(app.environment?.DATABASE_URL ?? '');
    expect(url.protocol).toBe('postgresql:');
    expect(url.hostname).toBe('db');
    expect(url.port).toBe('5432');
    expect(url.username).toBe(db.environment?.POSTGRES_USER);
    expect(url.password).toBe(example.POSTGRES_PASSWORD);
    expect(db.environment?.POSTGRES_PASSWORD).toBe(example.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${db.environment?.POSTGRES_DB}`);
    expect(app.environment?.DAILY_SECRET).toBe(example.DAILY_SECRET);
    expect(app.depends_on?.db?.condition).toBe('service_healthy');
  });

  it('each app node trusts exactly one proxy hop and has a healthcheck on /api/ready', () => {
    for (const name of ['app', 'app2']) {
      const node = services[name] as Service;
      expect(node.environment?.TRUST_PROXY).toBe('1');
      expect(node.healthcheck?.test.join(' ')).toContain('/api/ready');
    }
  });

  it('the proxy waits for healthy nodes; app2 only where the cluster profile runs it', () => {
    const proxy = services.proxy as Service;
    expect(proxy.profiles).toBeUndefined();
    expect(proxy.depends_on?.app).toEqual({ condition: 'service_healthy' });
    expect(proxy.depends_on?.app2).toEqual({ condition: 'service_healthy', required: false });
    expect(proxy.volumes).toEqual(['./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
  });

  it('without REDIS_URL the app runs alone (an empty REDIS_URL is no Redis)', () => {
    expect(services.app?.environment?.REDIS_URL).toBe('');
  });
});

describe('docker-compose.yml, profile cluster', () => {
  const services = composeWith({ ...example, REDIS_URL: 'redis://redis:6379' });

  it('two app nodes with the same settings on the same Postgres and Redis', () => {
    const app = services.app as Service;
    const app2 = services.app2 as Service;
    for (const s of [app2, services.redis as Service]) expect(s.profiles).toEqual(['cluster']);
    expect(app2.environment).toEqual(app.environment);
    expect(app2.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(app2.depends_on?.redis?.condition).toBe('service_healthy');
  });
});

describe('deploy/nginx.conf, the compose comments and docs/deploy.md agree', () => {
  const nginx = readFileSync(resolve(ROOT, 'deploy/nginx.conf'), 'utf8');
  const deployDoc = readFileSync(resolve(ROOT, 'docs/deploy.md'), 'utf8');

  it('spreads over both nodes by open connections, resolving them while running, and passes WebSocket upgrades', () => {
    expect(nginx).toMatch(
      /upstream klondike \{[^}]*least_conn;[^}]*server app:3000 resolve;[^}]*server app2:3000 resolve;/,
    );
    expect(nginx).toMatch(/upstream klondike \{[^}]*zone /);
    expect(nginx).toMatch(/^resolver 127\.0\.0\.11/m);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(nginx).not.toMatch(/non_idempotent/); // a move (POST) is never sent twice
  });

  it('the compose comments and the deploy doc name the same balancing and the same address', () => {
    for (const doc of [text, deployDoc]) {
      expect(doc).toMatch(/least_conn|fewest open/);
      expect(doc).not.toMatch(/round-robin over/);
      expect(doc).not.toMatch(/localhost:8080/);
      expect(doc).toMatch(/localhost:3000/);
    }
  });
});
