/**
 * The core games' module: the game rooms (`app.rooms`, `app.gameKinds`), the games routes (/api/games…), the
 * games' socket frames (subscribe, move, undo, resign: games/channel.ts), the casual kind of game (no rule
 * beyond the game log's own) and the rooms' settings.
 */
import { GAME_FRAMES } from './frame-docs.js';
import type { FeatureModule } from '../feature-module.js';
import { casualPolicy } from '../rooms/policies.js';
import { gameChannel } from './channel.js';
import { GAMES_CONFIG } from './config.js';
import { gameRoomsPlugin } from './plugin.js';
import { gameRoutes } from './routes.js';

/** The games' module. */
export const gamesModule: FeatureModule = {
  name: 'games',
  plugin: gameRoomsPlugin,
  routes: [gameRoutes],
  channel: (app) => gameChannel(app.rooms, { maxSubscriptions: app.config.wsMaxSubscriptions }),
  frames: GAME_FRAMES,
  games: () => ({ casual: { policy: casualPolicy } }),
  config: GAMES_CONFIG,
};
