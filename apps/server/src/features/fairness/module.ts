/** The fair-play module: keyed deal hashes and the deal embargo (`app.embargo`). No routes of its own. */
import type { FeatureModule } from '../../core/feature-module.js';
import { fairPlayPlugin } from './plugin.js';

/** The fair-play module. */
export const fairnessModule: FeatureModule = {
  name: 'fairness',
  plugin: fairPlayPlugin,
};
