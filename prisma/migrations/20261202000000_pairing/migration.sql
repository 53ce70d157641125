-- Quick pairing (docs/ratings.md "Quick race"): one pool row per player, and each rated racer's rating
-- before and after the race's result (shown with the results).
CREATE TABLE "PairingEntry" (
    "playerId" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "bot" BOOLEAN NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "enteredAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3),
    "raceCode" TEXT,

    CONSTRAINT "PairingEntry_pkey" PRIMARY KEY ("playerId")
);

CREATE INDEX "PairingEntry_status_preset_idx" ON "PairingEntry"("status", "preset");

ALTER TABLE "PairingEntry" ADD CONSTRAINT "PairingEntry_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "RaceRacer" ADD COLUMN "ratingBefore" DOUBLE PRECISION;
ALTER TABLE "RaceRacer" ADD COLUMN "ratingAfter" DOUBLE PRECISION;
