-- A ranked daily attempt whose options are its daily's preset's by the ranked rule (undo and hints off,
-- docs/features.md "Ranked rules") stores no options either: NULL, its daily names them (~180 bytes of JSON
-- less a row). gameOptionsOf (apps/server/src/db/game-options.ts) resolves a ranked row's NULL options to
-- rankedOptions(its daily's preset), any other row's to its preset's.
ALTER TABLE "Game" DROP CONSTRAINT "Game_options_or_preset";

-- The daily presets' options as they are at this migration (packages/klondike/src/options.ts PRESETS) with the
-- ranked rule applied, compared as JSONB (key order and spacing do not count). Neither a preset's options nor
-- the ranked rule change without a migration that first writes the old options back into the rows they name.
UPDATE "Game" AS g SET "options" = NULL
FROM "DailyDeal" AS d, (VALUES
  ('classic-draw1', '{"draw":1,"redeals":null,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('classic-draw3', '{"draw":3,"redeals":null,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb)
) AS p ("name", "options")
WHERE g."ranked" AND g."dailyId" = d."id" AND d."preset" = p."name"
  AND g."options" = p."options" || '{"undo":false,"hints":false}'::jsonb;

-- A row without options names them: by its preset, or, a ranked attempt, by its daily (gameOptionsOf refuses
-- one that does not).
ALTER TABLE "Game" ADD CONSTRAINT "Game_options_named"
  CHECK ("options" IS NOT NULL OR "preset" IS NOT NULL OR ("ranked" AND "dailyId" IS NOT NULL));
