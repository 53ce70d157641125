-- Race rooms live in their rows (apps/server/src/races): ready flags, presence and forfeits are columns, a
-- version orders room events, `endsAt` is the time limit as a fact, and RacePresence counts each node's race
-- sockets so that any node can run any room operation and one sweeper can run the cluster's race timers.
-- AlterTable
ALTER TABLE "Race" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "endsAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RaceRacer" ADD COLUMN "progressVersion" INTEGER,
ADD COLUMN "ready" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "away" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "forfeitAt" TIMESTAMP(3),
ADD COLUMN "forfeited" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "RacePresence" (
    "raceCode" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "viewer" TEXT NOT NULL,
    "sockets" INTEGER NOT NULL,

    CONSTRAINT "RacePresence_pkey" PRIMARY KEY ("raceCode","nodeId","viewer")
);

-- CreateIndex
CREATE INDEX "RacePresence_nodeId_idx" ON "RacePresence"("nodeId");

-- AddForeignKey
ALTER TABLE "RacePresence" ADD CONSTRAINT "RacePresence_raceCode_fkey" FOREIGN KEY ("raceCode") REFERENCES "Race"("code") ON DELETE CASCADE ON UPDATE CASCADE;
