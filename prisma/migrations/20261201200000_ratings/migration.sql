-- Glicko-2 ratings (docs/ratings.md): one row per player and pool, one history point per rating period,
-- and one row per daily once its results have moved the ratings (written in the same transaction, so a
-- day is rated exactly once whichever node settles it).
CREATE TABLE "Rating" (
    "playerId" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL,
    "period" TEXT NOT NULL,

    CONSTRAINT "Rating_pkey" PRIMARY KEY ("playerId","pool")
);

CREATE INDEX "Rating_pool_rating_idx" ON "Rating"("pool", "rating");

ALTER TABLE "Rating" ADD CONSTRAINT "Rating_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "RatingHistory" (
    "playerId" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "RatingHistory_pkey" PRIMARY KEY ("playerId","pool","period")
);

CREATE TABLE "RatedDaily" (
    "dailyId" INTEGER NOT NULL,
    "players" INTEGER NOT NULL,
    "difficulty" DOUBLE PRECISION,
    "difficultyDeviation" DOUBLE PRECISION,
    "ratedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RatedDaily_pkey" PRIMARY KEY ("dailyId")
);

ALTER TABLE "RatedDaily" ADD CONSTRAINT "RatedDaily_dailyId_fkey" FOREIGN KEY ("dailyId") REFERENCES "DailyDeal"("id") ON DELETE CASCADE ON UPDATE CASCADE;
