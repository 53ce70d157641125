-- Fair play (deal algorithm v2 keys, known-deal races, the deal embargo, fair-play signals).

-- AlterTable
ALTER TABLE "Game" ADD COLUMN "dealKey" TEXT;

-- AlterTable
ALTER TABLE "DailyDeal" ALTER COLUMN "dealNumber" DROP NOT NULL,
ADD COLUMN "dealKey" TEXT;

-- AlterTable
ALTER TABLE "DailyResult" ADD COLUMN "firstMoveMs" INTEGER,
ADD COLUMN "lineShare" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Race" ALTER COLUMN "dealNumber" DROP NOT NULL,
ADD COLUMN "knownDeal" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "dealKey" TEXT,
ADD COLUMN "dealHash" TEXT;

-- Races of a number were always known deals.
UPDATE "Race" SET "knownDeal" = true WHERE "dealKind" = 'number';

-- CreateIndex
CREATE INDEX "Race_dealHash_idx" ON "Race"("dealHash");
