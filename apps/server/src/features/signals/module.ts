/**
 * The fair-play signals' module (docs/fair-play.md "Signals", "Flags"): `app.signals`, which computes the
 * signals of every ended rated game on the solver's background lane and raises the automatic flags the
 * moderators' queue reads. No routes, frames or kinds of game of its own.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { SIGNALS_CONFIG } from './config.js';
import { signalsPlugin } from './plugin.js';

/** The fair-play signals' module. */
export const signalsModule: FeatureModule = {
  name: 'signals',
  plugin: signalsPlugin,
  config: SIGNALS_CONFIG,
};
