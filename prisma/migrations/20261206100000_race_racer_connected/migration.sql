-- When a racer first had a race socket in the room (issue 53, "Consent"): a rated race rates only racers who
-- connected or moved; one who did neither is void, neither winner nor loser (docs/ratings.md "Consent and
-- ranking"). The server sets it when a racer's socket count in the room rises (races/presence.ts).
ALTER TABLE "RaceRacer" ADD COLUMN "connectedAt" TIMESTAMP(3);

-- Racers holding a race socket as this runs are connected (since they joined: the first socket's time was not
-- kept); everyone else's first socket is not known, and a finished room is never rated again.
UPDATE "RaceRacer" AS rr SET "connectedAt" = rr."joinedAt"
WHERE EXISTS (
  SELECT 1 FROM "RacePresence" AS p WHERE p."raceCode" = rr."raceCode" AND p."viewer" = rr."playerId"
);
