-- A finished game's move log, compacted into its row (apps/server/src/maintenance/compaction.ts; the format
-- is docs/move-log.md): once a game was won or resigned MOVE_ARCHIVE_AFTER_MS ago, its entries are encoded
-- here and its "Move" rows deleted, so its day's partition of "Move" can empty and be dropped.
ALTER TABLE "Game" ADD COLUMN "moveLog" BYTEA;

-- The games left to compact, oldest end first: a partial index, so compacted games (the most, in time)
-- leave it and each batch reads only what it compacts. Prisma's schema cannot state a partial index: the
-- schema test lists it (apps/server/test/prisma-schema.ts, PARTIAL_INDEXES).
CREATE INDEX "Game_compaction_idx" ON "Game" ("endedAt") WHERE "moveLog" IS NULL AND "status" IN ('won', 'resigned');
