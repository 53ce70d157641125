-- A game whose "preset" names a preset whose options are exactly its own stores no options: NULL, the preset's
-- name stands for them (~180 bytes of JSON less a row). Every reader resolves a row's options through one
-- function, gameOptionsOf (apps/server/src/db/game-options.ts): the stored JSON, else the named preset's.
-- Other games (custom options, ranked attempts, races with hints off, berserk racers) keep their JSON.
ALTER TABLE "Game" ALTER COLUMN "options" DROP NOT NULL;

-- The presets' options as they are at this migration (packages/klondike/src/options.ts PRESETS), compared as
-- JSONB (key order and spacing do not count). A preset's options never change without a migration that first
-- writes its old options back into the games that name it with NULL options.
UPDATE "Game" AS g SET "options" = NULL
FROM (VALUES
  ('classic-draw3', '{"draw":3,"redeals":null,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('classic-draw1', '{"draw":1,"redeals":null,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('bicycle', '{"draw":3,"redeals":null,"tableauMoves":"wholePile","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('strict-draw3', '{"draw":3,"redeals":2,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('vegas-draw1', '{"draw":1,"redeals":0,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"vegas","timed":false,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('vegas-draw3', '{"draw":3,"redeals":2,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"vegas","timed":false,"undo":true,"hints":true,"finalSinglePass":false}'::jsonb),
  ('draw3-last-pass', '{"draw":3,"redeals":null,"tableauMoves":"anyRun","foundationToTableau":true,"scoring":"standard","timed":true,"undo":true,"hints":true,"finalSinglePass":true}'::jsonb)
) AS p ("name", "options")
WHERE g."preset" = p."name" AND g."options" = p."options";

-- A row without options names its preset (gameOptionsOf refuses one that does not).
ALTER TABLE "Game" ADD CONSTRAINT "Game_options_or_preset" CHECK ("options" IS NOT NULL OR "preset" IS NOT NULL);
