# Klondike online: the Fastify server serving the built Vue client. Migrations are applied by the server
# itself at start-up (apps/server/src/db/migrator.ts), against DATABASE_URL or, without it, embedded PGlite.
FROM node:20-bookworm-slim

RUN npm i -g pnpm@10
WORKDIR /app

# Manifests first, so the dependency layer is cached while sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY packages/klondike/package.json packages/klondike/
COPY packages/protocol/package.json packages/protocol/
COPY packages/solver/package.json packages/solver/
COPY apps/server/package.json apps/server/prisma.config.ts apps/server/
COPY apps/web/package.json apps/web/
RUN pnpm install --frozen-lockfile

COPY packages ./packages
COPY apps ./apps
# Regenerate Prisma Client now that every source is in place, then build the web client (apps/web/dist)
# and the server (apps/server/dist: plain JavaScript, no TypeScript loader at run time).
RUN node scripts/prisma-generate.mjs && pnpm --filter @klondike/web build && pnpm --filter @klondike/server build

# MALLOC_MMAP_THRESHOLD_: glibc serves every allocation of 128 KB or more with its own mapping and returns it
# when freed. Without it, glibc raises that threshold after the first large free, and the solver's tables
# (Uint32Arrays of up to tens of MB, freed after each search) then stay in malloc's arenas: an idle server held
# ~490 MB after the first start's daily backfill instead of ~225 MB (docs/benchmarks.md "Idle memory").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_MMAP_THRESHOLD_=131072
VOLUME ["/data"]
EXPOSE 3000
WORKDIR /app/apps/server
# node runs the built server directly (one process: SIGTERM reaches it and it shuts down cleanly).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "--heap-growing-percent=100", "--no-allocation-site-pretenuring", "dist/main.js"]
