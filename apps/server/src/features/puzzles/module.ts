/**
 * The puzzles' module (docs/puzzles.md): `app.puzzles` — fair positions cut from finished games on the
 * solver's background lane, rated attempts, the puzzle of the day, timed runs — and the /api/puzzles routes.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { PUZZLES_CONFIG } from './config.js';
import { puzzlesPlugin } from './plugin.js';
import { puzzlesRoutes } from './routes.js';

/** The puzzles' module. */
export const puzzlesModule: FeatureModule = {
  name: 'puzzles',
  plugin: puzzlesPlugin,
  routes: [puzzlesRoutes],
  config: PUZZLES_CONFIG,
};
