/** The game review's module: `app.reviews` and GET /api/games/:id/review (docs/review.md). */
import type { FeatureModule } from '../../core/feature-module.js';
import { REVIEW_CONFIG } from './config.js';
import { reviewPlugin } from './plugin.js';
import { reviewRoutes } from './routes.js';

/** The game review's module. */
export const reviewModule: FeatureModule = {
  name: 'review',
  plugin: reviewPlugin,
  routes: [reviewRoutes],
  config: REVIEW_CONFIG,
};
