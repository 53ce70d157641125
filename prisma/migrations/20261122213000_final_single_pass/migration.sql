-- Data only: rule R16 adds the game option "finalSinglePass". Stored options hold every option (the server
-- parses them with the strict options schema), so games and races stored before it get the default, false.
UPDATE "Game" SET "options" = "options" || '{"finalSinglePass": false}'::jsonb
WHERE NOT ("options" ? 'finalSinglePass');

UPDATE "Race" SET "options" = "options" || '{"finalSinglePass": false}'::jsonb
WHERE NOT ("options" ? 'finalSinglePass');
