/** The solver's module: its worker pool (`app.solver`), POST /api/solve and the hints, its settings. */
import type { FeatureModule } from '../../core/feature-module.js';
import { SOLVE_CONFIG } from './config.js';
import { solverPlugin } from './plugin.js';
import { solveRoutes } from './routes.js';

/** The solver's module. */
export const solveModule: FeatureModule = {
  name: 'solve',
  plugin: solverPlugin,
  routes: [solveRoutes],
  config: SOLVE_CONFIG,
};
