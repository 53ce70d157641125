/**
 * The players' module: bearer tokens and `req.player` (plugin `auth`), the players' routes
 * (/api/players…, /api/me…) and their statistics routes, and the players' settings.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { PLAYERS_CONFIG } from './config.js';
import { authPlugin } from './plugin.js';
import { playerRoutes } from './routes.js';
import { statsRoutes } from './stats-routes.js';

/** The players' module. */
export const playersModule: FeatureModule = {
  name: 'players',
  plugin: authPlugin,
  routes: [playerRoutes, statsRoutes],
  config: PLAYERS_CONFIG,
};
