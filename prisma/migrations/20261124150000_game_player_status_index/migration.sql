-- A player's games by status: GET /api/me/games/current reads the player's unfinished games, statistics
-- and history their finished ones. It replaces the index on "playerId" alone (one index, same writes); the
-- last action's time ("updatedAt") stays unindexed, as every move changes it.
DROP INDEX "Game_playerId_idx";
CREATE INDEX "Game_playerId_status_idx" ON "Game"("playerId", "status");
