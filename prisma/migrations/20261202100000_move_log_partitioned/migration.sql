-- "Move" becomes a table partitioned by range of "gameDay": the UTC day of its game's creation
-- ("Game"."createdAt"::date), one partition a day (apps/server/src/maintenance/partitions.ts), plus a DEFAULT
-- partition for the days that have none.
--
-- Why the game's creation day, not the entry's own time: every entry of a game lands in the same partition,
-- so a reader that knows the game (its row comes first) reads one partition only, and a day's partition is
-- left empty once each game created that day has been compacted into "Game"."moveLog" or deleted by retention:
-- then it is dropped whole, with no DELETE and no vacuum debt. Why a day, not a week: at the expected volume
-- a day is already a large table, and an empty day is dropped a week sooner.
--
-- The key includes the partition key, as Postgres requires; ("gameId", seq) stays its prefix. Today and the next two days get
-- their partitions here (then from the daily job); the rows of the old table go to their day's partition or,
-- for the days before, to the DEFAULT one (nothing is dropped there; compaction empties it).
ALTER TABLE "Move" RENAME TO "Move_unpartitioned";
ALTER TABLE "Move_unpartitioned" RENAME CONSTRAINT "Move_pkey" TO "Move_unpartitioned_pkey";

CREATE TABLE "Move" (
    "gameId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" "MoveKind" NOT NULL,
    "move" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "gameDay" DATE NOT NULL,

    CONSTRAINT "Move_pkey" PRIMARY KEY ("gameId", "seq", "gameDay")
) PARTITION BY RANGE ("gameDay");

CREATE TABLE "Move_default" PARTITION OF "Move" DEFAULT;

-- Today and the next two days (UTC), named Move_pYYYYMMDD as the server names them.
DO $$
DECLARE
  first date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
  FOR i IN 0..2 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "Move" FOR VALUES FROM (%L) TO (%L)',
      'Move_p' || to_char(first + i, 'YYYYMMDD'), first + i, first + i + 1);
  END LOOP;
END $$;

INSERT INTO "Move" ("gameId", "seq", "kind", "move", "createdAt", "gameDay")
SELECT m."gameId", m."seq", m."kind", m."move", m."createdAt", COALESCE(g."createdAt", m."createdAt")::date
FROM "Move_unpartitioned" m LEFT JOIN "Game" g ON g."id" = m."gameId";

DROP TABLE "Move_unpartitioned";
