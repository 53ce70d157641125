/** The ratings' module: `app.ratings` and the rating routes (/api/ratings…). */
import type { FeatureModule } from '../../core/feature-module.js';
import { ratingsPlugin } from './plugin.js';
import { ratingRoutes } from './routes.js';

/** The ratings' module. */
export const ratingsModule: FeatureModule = {
  name: 'ratings',
  plugin: ratingsPlugin,
  routes: [ratingRoutes],
};
