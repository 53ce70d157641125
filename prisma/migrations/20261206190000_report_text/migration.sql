-- A report's few words (POST /api/reports `text`, at most 500 characters), shown to moderators.
ALTER TABLE "Report" ADD COLUMN "text" TEXT;
