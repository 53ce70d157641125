/**
 * The arenas' module: `app.arenas` (its tick and schedule), the arena routes (/api/arenas…), its socket frames
 * (`arena-subscribe`, `arena-unsubscribe`) and its settings.
 */
import { ARENA_FRAMES } from './frame-docs.js';
import type { FeatureModule } from '../../core/feature-module.js';
import { arenaChannel } from './channel.js';
import { ARENAS_CONFIG } from './config.js';
import { arenasPlugin } from './plugin.js';
import { arenaRoutes } from './routes.js';

/** The arenas' module. */
export const arenasModule: FeatureModule = {
  name: 'arenas',
  plugin: arenasPlugin,
  routes: [arenaRoutes],
  channel: (app) => arenaChannel(app.arenas),
  frames: ARENA_FRAMES,
  config: ARENAS_CONFIG,
};
