-- One bearer token per signed-in device (rotation, sign-out everywhere) and single-use transfer codes in
-- place of a permanent token in a sign-in link. Existing tokens carry over as each player's first device.

-- CreateTable
CREATE TABLE "PlayerToken" (
    "tokenHash" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlayerToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "TransferCode" (
    "codeHash" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TransferCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateIndex
CREATE INDEX "PlayerToken_playerId_idx" ON "PlayerToken"("playerId");

-- CreateIndex
CREATE INDEX "TransferCode_playerId_idx" ON "TransferCode"("playerId");

-- AddForeignKey
ALTER TABLE "PlayerToken" ADD CONSTRAINT "PlayerToken_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TransferCode" ADD CONSTRAINT "TransferCode_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Carry the existing tokens over
INSERT INTO "PlayerToken" ("tokenHash", "playerId", "createdAt") SELECT "tokenHash", "id", "createdAt" FROM "Player";

-- DropIndex
DROP INDEX "Player_tokenHash_key";

-- AlterTable
ALTER TABLE "Player" DROP COLUMN "tokenHash";
