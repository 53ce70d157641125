-- No farming (docs/ratings.md "No farming"): a rated race's result between two accounts counts once per race
-- pool per UTC day. The first rated race of the day that pairs two accounts claims their row; later races of
-- the same pair that day find it and rate nothing between them. No foreign keys: a row is a fact about a day,
-- deleted once its day has passed (ratings/farming.ts).
CREATE TABLE "RatedPair" (
    "pool" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "playerA" TEXT NOT NULL,
    "playerB" TEXT NOT NULL,
    "raceCode" TEXT NOT NULL,

    CONSTRAINT "RatedPair_pkey" PRIMARY KEY ("pool","day","playerA","playerB")
);
