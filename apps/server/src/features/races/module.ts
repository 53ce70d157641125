/**
 * The races' module: `app.races` (its sweeper and heartbeat), the race routes (/api/races…), the `race`
 * kind of game (the racer's alone during the race; progress frames: races/policy.ts) and its settings.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { RACES_CONFIG } from './config.js';
import { racesPlugin } from './plugin.js';
import { racePolicy } from './policy.js';
import { raceRoutes } from './routes.js';

/** The races' module. */
export const racesModule: FeatureModule = {
  name: 'races',
  plugin: racesPlugin,
  routes: [raceRoutes],
  games: (app) => ({ race: { policy: racePolicy(app.races) } }),
  config: RACES_CONFIG,
};
