-- Fair play with due process (docs/fair-play.md): signals of each finished rated game, automatic flags,
-- player reports, moderators' marks with rating refunds, appeals, moderators named by the CLI and the
-- moderators' audit log. No foreign keys: each row is a fact about a player or game, kept as long as the log.
ALTER TABLE "Player" ADD COLUMN "markedAt" TIMESTAMP(3);
ALTER TABLE "Player" ADD COLUMN "closedAt" TIMESTAMP(3);

CREATE TABLE "GameSignals" (
    "gameId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "moves" INTEGER NOT NULL,
    "medianGapMs" INTEGER,
    "fastShare" DOUBLE PRECISION NOT NULL,
    "gapVariation" DOUBLE PRECISION,
    "solverAgreement" DOUBLE PRECISION,
    "hiddenChoices" INTEGER NOT NULL DEFAULT 0,
    "hiddenHits" INTEGER NOT NULL DEFAULT 0,
    "flags" JSONB NOT NULL DEFAULT '[]',
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GameSignals_pkey" PRIMARY KEY ("gameId")
);
CREATE INDEX "GameSignals_playerId_computedAt_idx" ON "GameSignals"("playerId", "computedAt");

CREATE TABLE "FairPlayFlag" (
    "id" SERIAL NOT NULL,
    "playerId" TEXT NOT NULL,
    "gameId" TEXT,
    "reason" TEXT NOT NULL,
    "evidence" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),
    "closedBy" TEXT,

    CONSTRAINT "FairPlayFlag_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "FairPlayFlag_playerId_reason_gameId_key" ON "FairPlayFlag"("playerId", "reason", "gameId");
CREATE INDEX "FairPlayFlag_closedAt_createdAt_idx" ON "FairPlayFlag"("closedAt", "createdAt");

CREATE TABLE "Report" (
    "id" SERIAL NOT NULL,
    "reporterId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "gameId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),
    "closedBy" TEXT,
    "outcome" TEXT,

    CONSTRAINT "Report_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Report_playerId_closedAt_idx" ON "Report"("playerId", "closedAt");
CREATE INDEX "Report_createdAt_idx" ON "Report"("createdAt");
-- One open report per reporter and player: a second one is refused (409) until a moderator closes the first.
CREATE UNIQUE INDEX "Report_open_key" ON "Report"("reporterId", "playerId") WHERE "closedAt" IS NULL;

CREATE TABLE "FairPlayMark" (
    "id" SERIAL NOT NULL,
    "playerId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "moderatorId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "liftedAt" TIMESTAMP(3),
    "liftedBy" TEXT,

    CONSTRAINT "FairPlayMark_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "FairPlayMark_playerId_idx" ON "FairPlayMark"("playerId");

CREATE TABLE "RatingRefund" (
    "markId" INTEGER NOT NULL,
    "playerId" TEXT NOT NULL,
    "raceCode" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "points" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "RatingRefund_pkey" PRIMARY KEY ("markId","playerId","raceCode")
);

CREATE TABLE "Appeal" (
    "id" SERIAL NOT NULL,
    "playerId" TEXT NOT NULL,
    "markId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,
    "outcome" TEXT,
    "answer" TEXT,

    CONSTRAINT "Appeal_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Appeal_markId_key" ON "Appeal"("markId");
CREATE INDEX "Appeal_decidedAt_idx" ON "Appeal"("decidedAt");

CREATE TABLE "Moderator" (
    "playerId" TEXT NOT NULL,
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "grantedBy" TEXT NOT NULL,

    CONSTRAINT "Moderator_pkey" PRIMARY KEY ("playerId")
);

CREATE TABLE "ModAction" (
    "id" SERIAL NOT NULL,
    "moderatorId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "playerId" TEXT,
    "reason" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModAction_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "ModAction_createdAt_idx" ON "ModAction"("createdAt");
CREATE INDEX "ModAction_playerId_idx" ON "ModAction"("playerId");
