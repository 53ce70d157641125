-- A race game knows its race from its creation: the kind of a game never depends on the moment its racer's
-- seat is linked to it. Games dealt before keep their link through "RaceRacer"."gameId".
ALTER TABLE "Game" ADD COLUMN "raceCode" TEXT;
UPDATE "Game" g SET "raceCode" = r."raceCode" FROM "RaceRacer" r WHERE r."gameId" = g."id";
