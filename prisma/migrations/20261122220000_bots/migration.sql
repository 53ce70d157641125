-- Bot accounts: labelled as bots, ranked on their own boards (apps/server/src/players).
-- AlterTable
ALTER TABLE "Player" ADD COLUMN "bot" BOOLEAN NOT NULL DEFAULT false;
