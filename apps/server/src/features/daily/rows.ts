/**
 * The rows a ranked daily attempt adds to its game's writes (db/game-store.ts): written by the daily's
 * repository (daily/repository.ts `dailyRankedRows`), named here for the game rooms' plugin.
 */
export { dailyRankedRows } from './repository.js';
