-- Ranked daily attempts take no action once their day has closed (the daily policy refuses it on every node),
-- whatever their status: compaction (apps/server/src/maintenance/compaction.ts) takes those still playing or
-- blocked as well, so a daily's games leave "Move" and their days' partitions can be dropped. This partial
-- index finds them by their daily (listed in apps/server/test/prisma-schema.ts, PARTIAL_INDEXES).
CREATE INDEX "Game_ranked_compaction_idx" ON "Game" ("dailyId") WHERE "moveLog" IS NULL AND "ranked" AND "status" IN ('playing', 'blocked');
