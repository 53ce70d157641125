-- CreateEnum
CREATE TYPE "RaceStatus" AS ENUM ('lobby', 'countdown', 'running', 'finished');

-- CreateTable
CREATE TABLE "Race" (
    "code" TEXT NOT NULL,
    "status" "RaceStatus" NOT NULL DEFAULT 'lobby',
    "preset" TEXT,
    "options" JSONB NOT NULL,
    "dealKind" TEXT NOT NULL,
    "dealNumber" BIGINT NOT NULL,
    "deal" TEXT NOT NULL,
    "maxPlayers" INTEGER NOT NULL,
    "timeLimitMs" INTEGER,
    "hostId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startsAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "endReason" TEXT,
    "rematchCode" TEXT,

    CONSTRAINT "Race_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "RaceRacer" (
    "raceCode" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "seat" INTEGER NOT NULL,
    "gameId" TEXT,
    "placement" INTEGER,
    "progress" JSONB,
    "joinedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RaceRacer_pkey" PRIMARY KEY ("raceCode","playerId")
);

-- CreateIndex
CREATE INDEX "Race_status_idx" ON "Race"("status");

-- CreateIndex
CREATE UNIQUE INDEX "RaceRacer_gameId_key" ON "RaceRacer"("gameId");

-- CreateIndex
CREATE INDEX "RaceRacer_playerId_idx" ON "RaceRacer"("playerId");

-- AddForeignKey
ALTER TABLE "Race" ADD CONSTRAINT "Race_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RaceRacer" ADD CONSTRAINT "RaceRacer_raceCode_fkey" FOREIGN KEY ("raceCode") REFERENCES "Race"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RaceRacer" ADD CONSTRAINT "RaceRacer_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RaceRacer" ADD CONSTRAINT "RaceRacer_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE SET NULL ON UPDATE CASCADE;
