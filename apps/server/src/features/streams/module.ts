/** The NDJSON streams' module: `app.streams` (the open streams of the node) and the /api/stream routes. */
import type { FeatureModule } from '../../core/feature-module.js';
import { STREAMS_CONFIG } from './config.js';
import { streamsPlugin } from './plugin.js';
import { streamRoutes } from './routes.js';

/** The streams' module. */
export const streamsModule: FeatureModule = {
  name: 'streams',
  plugin: streamsPlugin,
  routes: [streamRoutes],
  config: STREAMS_CONFIG,
};
