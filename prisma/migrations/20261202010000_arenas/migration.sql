-- Arenas (docs/arenas.md): tournaments of quick races, their players' scores, and the races paired in them.
CREATE TABLE "Arena" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "rated" BOOLEAN NOT NULL DEFAULT true,
    "inviteCode" TEXT,
    "bots" BOOLEAN NOT NULL DEFAULT false,
    "raceTimeLimitMs" INTEGER NOT NULL,
    "createdBy" TEXT,
    "scheduleKey" TEXT,
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Arena_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Arena_scheduleKey_key" ON "Arena"("scheduleKey");
CREATE INDEX "Arena_endsAt_idx" ON "Arena"("endsAt");

CREATE TABLE "ArenaPlayer" (
    "arenaId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "joinedAt" TIMESTAMP(3) NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "points" INTEGER NOT NULL DEFAULT 0,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "streak" INTEGER NOT NULL DEFAULT 0,
    "raceCode" TEXT,
    "waitingSince" TIMESTAMP(3),
    "lastOpponent" TEXT,

    CONSTRAINT "ArenaPlayer_pkey" PRIMARY KEY ("arenaId","playerId")
);
CREATE INDEX "ArenaPlayer_playerId_idx" ON "ArenaPlayer"("playerId");
ALTER TABLE "ArenaPlayer" ADD CONSTRAINT "ArenaPlayer_arenaId_fkey" FOREIGN KEY ("arenaId") REFERENCES "Arena"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ArenaPlayer" ADD CONSTRAINT "ArenaPlayer_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "ArenaRace" (
    "raceCode" TEXT NOT NULL,
    "arenaId" TEXT NOT NULL,
    "scoredAt" TIMESTAMP(3),

    CONSTRAINT "ArenaRace_pkey" PRIMARY KEY ("raceCode")
);
CREATE INDEX "ArenaRace_arenaId_scoredAt_idx" ON "ArenaRace"("arenaId", "scoredAt");
ALTER TABLE "ArenaRace" ADD CONSTRAINT "ArenaRace_arenaId_fkey" FOREIGN KEY ("arenaId") REFERENCES "Arena"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Race" ADD COLUMN "arenaId" TEXT;
ALTER TABLE "RaceRacer" ADD COLUMN "berserk" BOOLEAN NOT NULL DEFAULT false;
