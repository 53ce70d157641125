/** The quick pairing's module: `app.pairing` (its pools) and the pairing routes (/api/pairing). */
import type { FeatureModule } from '../../core/feature-module.js';
import { pairingPlugin } from './plugin.js';
import { pairingRoutes } from './routes.js';

/** The quick pairing's module. */
export const pairingModule: FeatureModule = {
  name: 'pairing',
  plugin: pairingPlugin,
  routes: [pairingRoutes],
};
