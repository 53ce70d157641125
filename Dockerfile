# Klondike online: the Fastify server serving the built Vue client. Migrations are applied by the server
# itself at start-up (apps/server/src/infra/db/migrator.ts), against DATABASE_URL or, without it, embedded PGlite.
#
# Two stages: `build` installs the whole workspace and builds the web client and the server; `runtime` holds
# only what the server runs (its built dist/, its production dependencies, the web client, the migrations)
# and runs as the unprivileged `node` user. apps/server/test/house/dockerfile.test.ts checks this file and replays
# its steps in a scratch folder (CI has no Docker engine); keep every RUN path relative to the WORKDIR.
#
# NODE_IMAGE: the base of both stages, a supported Node.js LTS (Node 20 reached its end of life in April 2026).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install -g pnpm@10.34.9
WORKDIR /app

# Manifests first, so the dependency layer is cached while sources change. Every workspace package's
# package.json must be here: a package missing from this step is installed with no dependencies, and the
# builds that import it fail (the test above compares this list with pnpm-workspace.yaml).
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY packages/klondike/package.json packages/klondike/
COPY packages/protocol/package.json packages/protocol/
COPY packages/solver/package.json packages/solver/
COPY packages/client/package.json packages/client/
COPY apps/server/package.json apps/server/prisma.config.ts apps/server/
COPY apps/web/package.json apps/web/
RUN pnpm install --frozen-lockfile

COPY packages ./packages
COPY apps ./apps
# Regenerate Prisma Client now that every source is in place, then build the web client (apps/web/dist)
# and the server (apps/server/dist: plain JavaScript with the workspace packages bundled in).
RUN node scripts/prisma-generate.mjs && pnpm --filter @klondike/web build && pnpm --filter @klondike/server build
# The server's production dependencies as plain folders (no links into the workspace or the store), and an
# empty data folder for the runtime stage to own.
RUN pnpm --filter @klondike/server deploy --prod --legacy --ignore-scripts out/server && mkdir -p out/data

FROM ${NODE_IMAGE} AS runtime
# MALLOC_MMAP_THRESHOLD_: glibc serves every allocation of 128 KB or more with its own mapping and returns it
# when freed. Without it, glibc raises that threshold after the first large free, and the solver's tables
# (Uint32Arrays of up to tens of MB, freed after each search) then stay in malloc's arenas: an idle server held
# ~490 MB after the first start's daily backfill instead of ~225 MB (docs/benchmarks.md "Idle memory").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/out/server/package.json apps/server/package.json
COPY --from=build /app/out/server/node_modules apps/server/node_modules
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/prisma/migrations prisma/migrations
COPY --from=build --chown=node:node /app/out/data /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Healthy once this node can serve games (the database answers, every migration applied): GET /api/ready.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
WORKDIR /app/apps/server
# node runs the built server directly (one process: SIGTERM reaches it and it shuts down cleanly).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "--heap-growing-percent=100", "--no-allocation-site-pretenuring", "dist/main.js"]
