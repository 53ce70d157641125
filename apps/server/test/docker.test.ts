/** docker-compose.yml and the Dockerfile at the repository root are present and consistent. */
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
      ports: z.array(z.string()),
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

describe('docker-compose.yml', () => {
  const compose = ComposeSchema.parse(parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8')));

  it('db: postgres:15 on 5432', () => {
    expect(compose.services.db.image).toMatch(/^postgres:15(\b|$)/);
    expect(compose.services.db.ports).toContain('5432:5432');
  });

  it('app: built from ./Dockerfile, on 3000, DATABASE_URL pointing at the db service, after db', () => {
    const app = compose.services.app;
    expect(app.build.context).toBe('.');
    expect(existsSync(resolve(ROOT, app.build.context, app.build.dockerfile))).toBe(true);
    expect(app.ports).toContain('3000:3000');
    const url = new URL(app.environment.DATABASE_URL ?? '');
    expect(url.protocol).toBe('postgresql:');
    expect(url.hostname).toBe('db');
    expect(url.port).toBe('5432');
    expect(url.username).toBe(compose.services.db.environment.POSTGRES_USER);
    expect(url.pathname).toBe(`/${compose.services.db.environment.POSTGRES_DB}`);
    expect(Object.keys(app.depends_on)).toContain('db');
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
  it('node:20, pnpm@10, frozen-lockfile install, web build, server start', () => {
    expect(text).toMatch(/^FROM node:20/m);
    expect(text).toMatch(/npm i -g pnpm@10/);
    expect(text).toMatch(/pnpm install --frozen-lockfile/);
    expect(text).toMatch(/pnpm --filter @klondike\/web build/);
    expect(text).toMatch(/src\/main\.ts/);
    expect(text).toMatch(/EXPOSE 3000/);
  });
});
