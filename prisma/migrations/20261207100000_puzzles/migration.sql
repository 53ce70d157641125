-- Puzzles (docs/puzzles.md): fair positions cut from finished games with a public replay, the games already
-- cut, players' puzzle ratings and first attempts, the puzzle of the day and the timed runs. No foreign keys,
-- like the fair-play tables: each row is a fact about a game, player or puzzle.
CREATE TABLE "Puzzle" (
    "id" TEXT NOT NULL,
    "goal" TEXT NOT NULL,
    "par" INTEGER NOT NULL,
    "proven" BOOLEAN NOT NULL DEFAULT false,
    "position" JSONB NOT NULL,
    "solution" JSONB NOT NULL,
    "themes" JSONB NOT NULL,
    "unseen" INTEGER NOT NULL,
    "choices" INTEGER NOT NULL,
    "gameId" TEXT NOT NULL,
    "ply" INTEGER NOT NULL,
    "dailyDate" TEXT,
    "rating" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "plays" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Puzzle_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Puzzle_gameId_ply_key" ON "Puzzle"("gameId", "ply");
CREATE INDEX "Puzzle_rating_idx" ON "Puzzle"("rating");

CREATE TABLE "PuzzleScan" (
    "gameId" TEXT NOT NULL,
    "candidates" INTEGER NOT NULL,
    "puzzles" INTEGER NOT NULL,
    "scannedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PuzzleScan_pkey" PRIMARY KEY ("gameId")
);

CREATE TABLE "PuzzleRating" (
    "playerId" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "deviation" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "solved" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PuzzleRating_pkey" PRIMARY KEY ("playerId")
);

CREATE TABLE "PuzzleAttempt" (
    "playerId" TEXT NOT NULL,
    "puzzleId" TEXT NOT NULL,
    "correct" BOOLEAN NOT NULL,
    "ratingBefore" DOUBLE PRECISION NOT NULL,
    "ratingAfter" DOUBLE PRECISION NOT NULL,
    "puzzleBefore" DOUBLE PRECISION NOT NULL,
    "puzzleAfter" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PuzzleAttempt_pkey" PRIMARY KEY ("playerId","puzzleId")
);
CREATE INDEX "PuzzleAttempt_playerId_createdAt_idx" ON "PuzzleAttempt"("playerId", "createdAt");

CREATE TABLE "PuzzleDaily" (
    "date" TEXT NOT NULL,
    "puzzleId" TEXT NOT NULL,

    CONSTRAINT "PuzzleDaily_pkey" PRIMARY KEY ("date")
);

CREATE TABLE "PuzzleRun" (
    "id" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "solved" INTEGER NOT NULL DEFAULT 0,
    "wrong" INTEGER NOT NULL DEFAULT 0,
    "puzzleId" TEXT,
    "served" JSONB NOT NULL DEFAULT '[]',
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "PuzzleRun_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "PuzzleRun_playerId_idx" ON "PuzzleRun"("playerId");
CREATE INDEX "PuzzleRun_endsAt_idx" ON "PuzzleRun"("endsAt");
