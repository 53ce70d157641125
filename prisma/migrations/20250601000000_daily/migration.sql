-- CreateEnum
CREATE TYPE "ResultStatus" AS ENUM ('won', 'resigned', 'blocked', 'unfinished');

-- AlterTable
ALTER TABLE "Game" ADD COLUMN     "dailyId" INTEGER,
ADD COLUMN     "playerId" TEXT,
ADD COLUMN     "ranked" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Player" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DailyDeal" (
    "id" SERIAL NOT NULL,
    "date" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "deal" TEXT NOT NULL,
    "dealNumber" BIGINT NOT NULL,
    "candidate" INTEGER NOT NULL,
    "par" INTEGER NOT NULL,
    "line" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DailyDeal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DailyAttempt" (
    "dailyId" INTEGER NOT NULL,
    "playerId" TEXT NOT NULL,
    "gameId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DailyAttempt_pkey" PRIMARY KEY ("dailyId","playerId")
);

-- CreateTable
CREATE TABLE "DailyResult" (
    "dailyId" INTEGER NOT NULL,
    "playerId" TEXT NOT NULL,
    "gameId" TEXT NOT NULL,
    "status" "ResultStatus" NOT NULL,
    "won" BOOLEAN NOT NULL,
    "score" INTEGER NOT NULL,
    "timeMs" INTEGER NOT NULL,
    "moves" INTEGER NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DailyResult_pkey" PRIMARY KEY ("dailyId","playerId")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "Game_playerId_idx" ON "Game"("playerId");

-- CreateIndex
CREATE UNIQUE INDEX "Player_nameKey_key" ON "Player"("nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Player_tokenHash_key" ON "Player"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "DailyDeal_date_preset_key" ON "DailyDeal"("date", "preset");

-- CreateIndex
CREATE UNIQUE INDEX "DailyAttempt_gameId_key" ON "DailyAttempt"("gameId");

-- CreateIndex
CREATE UNIQUE INDEX "DailyResult_gameId_key" ON "DailyResult"("gameId");

-- CreateIndex
CREATE INDEX "DailyResult_playerId_idx" ON "DailyResult"("playerId");

-- AddForeignKey
ALTER TABLE "Game" ADD CONSTRAINT "Game_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Game" ADD CONSTRAINT "Game_dailyId_fkey" FOREIGN KEY ("dailyId") REFERENCES "DailyDeal"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyAttempt" ADD CONSTRAINT "DailyAttempt_dailyId_fkey" FOREIGN KEY ("dailyId") REFERENCES "DailyDeal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyAttempt" ADD CONSTRAINT "DailyAttempt_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyAttempt" ADD CONSTRAINT "DailyAttempt_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyResult" ADD CONSTRAINT "DailyResult_dailyId_fkey" FOREIGN KEY ("dailyId") REFERENCES "DailyDeal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyResult" ADD CONSTRAINT "DailyResult_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DailyResult" ADD CONSTRAINT "DailyResult_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
