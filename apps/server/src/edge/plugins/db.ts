/**
 * Plugin `db`: opens and migrates the database (embedded PGlite without DATABASE_URL, Postgres with it),
 * decorates `app.db` and `app.prisma`, and closes it when the server closes.
 */
import fp from 'fastify-plugin';
import { type Database, type DatabaseTarget, openDatabase } from '../../infra/db/database.js';
import type { PrismaClient } from '../../infra/db/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open database (plugin `db`). */
    db: Database;
    /** Prisma Client of the open database (plugin `db`). */
    prisma: PrismaClient;
  }
}

/** Options of the db plugin. */
export interface DbPluginOptions {
  /** Migrations folder (default: the repository's prisma/migrations). */
  readonly migrationsDir?: string;
}

/** The database target for a configuration: Postgres when `databaseUrl` is set, else PGlite under `dataDir`. */
export function databaseTarget(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget {
  if (config.databaseUrl !== undefined) return { kind: 'postgres', url: config.databaseUrl };
  return {
    kind: 'pglite',
    dataDir: config.dataDir.includes('://') ? config.dataDir : `${config.dataDir.replace(/\/+$/, '')}/pglite`,
  };
}

/** Opens the database at registration; closes it on `onClose`. */
export const dbPlugin = fp<DbPluginOptions>(
  async (app, opts) => {
    const target = databaseTarget(app.config);
    const db = await openDatabase(
      target,
      opts.migrationsDir !== undefined ? { migrationsDir: opts.migrationsDir } : {},
    );
    app.log.info({ database: db.kind, migrations: db.migrations }, 'database ready');
    app.decorate('db', db);
    app.decorate('prisma', db.prisma);
    app.addHook('onClose', async () => {
      await db.close();
    });
  },
  { name: 'db', fastify: '5.x', dependencies: ['config'] },
);
