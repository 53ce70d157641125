-- CreateEnum
CREATE TYPE "GameStatus" AS ENUM ('playing', 'won', 'blocked', 'resigned');

-- CreateEnum
CREATE TYPE "MoveKind" AS ENUM ('move', 'undo', 'resign');

-- CreateTable
CREATE TABLE "Game" (
    "id" TEXT NOT NULL,
    "preset" TEXT,
    "options" JSONB NOT NULL,
    "deal" TEXT NOT NULL,
    "dealNumber" BIGINT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "status" "GameStatus" NOT NULL DEFAULT 'playing',
    "score" INTEGER NOT NULL DEFAULT 0,
    "moves" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Game_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Move" (
    "id" BIGSERIAL NOT NULL,
    "gameId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" "MoveKind" NOT NULL,
    "move" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Move_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Game_status_endedAt_idx" ON "Game"("status", "endedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Move_gameId_seq_key" ON "Move"("gameId", "seq");

-- AddForeignKey
ALTER TABLE "Move" ADD CONSTRAINT "Move_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
