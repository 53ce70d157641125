-- Games played offline in the browser and uploaded by their player (issue 60; docs/api.md "Imported
-- games"): the client's id of the offline game marks a game imported (unverified) and makes an upload
-- idempotent per player. NULLs are distinct, so every other game is unaffected.
ALTER TABLE "Game" ADD COLUMN "importKey" TEXT;
CREATE UNIQUE INDEX "Game_playerId_importKey_key" ON "Game"("playerId", "importKey");
