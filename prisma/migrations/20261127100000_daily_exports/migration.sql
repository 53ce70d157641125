-- Open data (docs/data.md): one export file per closed day, made once when the day has settled and stored
-- here so that every node serves the same bytes with the same SHA-256.
-- CreateTable
CREATE TABLE "DailyExport" (
    "date" TEXT NOT NULL,
    "data" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "games" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DailyExport_pkey" PRIMARY KEY ("date")
);
