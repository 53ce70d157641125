/**
 * The players' module: bearer tokens and `req.player` (plugin `auth`), the players' routes
 * (/api/players…, /api/me…), their statistics routes, personal access tokens (/api/tokens…), and the players' settings.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { accessTokenRoutes } from './access-token-routes.js';
import { PLAYERS_CONFIG } from './config.js';
import { authPlugin } from './plugin.js';
import { playerRoutes } from './routes.js';
import { statsRoutes } from './stats-routes.js';

/** The players' module. */
export const playersModule: FeatureModule = {
  name: 'players',
  plugin: authPlugin,
  routes: [playerRoutes, statsRoutes, accessTokenRoutes],
  config: PLAYERS_CONFIG,
};
