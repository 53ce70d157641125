/** The status feature (issue 58): the public status page's service, its route and the operator's incident routes. */
import type { FeatureModule } from '../../core/feature-module.js';
import { STATUS_CONFIG } from './config.js';
import { statusPlugin } from './plugin.js';
import { statusRoutes } from './routes.js';

/** The status feature's module. */
export const statusModule: FeatureModule = {
  name: 'status',
  plugin: statusPlugin,
  routes: [statusRoutes],
  config: STATUS_CONFIG,
};
