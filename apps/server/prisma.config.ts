/**
 * Prisma CLI configuration (Prisma 7): the schema and the migrations live at the repository root.
 * `DATABASE_URL` is only needed by commands that talk to a database (`prisma migrate deploy|status`);
 * `prisma generate` runs without it (scripts/prisma-generate.mjs).
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
