/** The quick pairing's module: `app.pairing` (its pools), the pairing routes (/api/pairing) and its `paired` notices on the socket. */
import { PAIRING_FRAMES } from './frame-docs.js';
import type { FeatureModule } from '../../core/feature-module.js';
import { pairingChannel } from './channel.js';
import { pairingPlugin } from './plugin.js';
import { pairingRoutes } from './routes.js';

/** The quick pairing's module. */
export const pairingModule: FeatureModule = {
  name: 'pairing',
  plugin: pairingPlugin,
  routes: [pairingRoutes],
  channel: (app) => pairingChannel(app.pairing),
  frames: PAIRING_FRAMES,
};
