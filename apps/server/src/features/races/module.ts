/**
 * The races' module: `app.races` (its sweeper and heartbeat), the race routes (/api/races…), its socket
 * frames (`race-subscribe`, `race-unsubscribe`), the `race` kind of game (the racer's alone during the race; progress frames: races/policy.ts) and its settings.
 */
import { RACE_FRAMES } from './frame-docs.js';
import type { FeatureModule } from '../../core/feature-module.js';
import { raceChannel } from './channel.js';
import { RACES_CONFIG } from './config.js';
import { racesPlugin } from './plugin.js';
import { racePolicy } from './policy.js';
import { raceRoutes } from './routes.js';

/** The races' module. */
export const racesModule: FeatureModule = {
  name: 'races',
  plugin: racesPlugin,
  routes: [raceRoutes],
  channel: (app) => raceChannel(app.races, { lookups: app.config.raceRateMax }),
  frames: RACE_FRAMES,
  // A racer's game that ends asks for the fair-play signals of the race's games (features/signals).
  games: (app) => ({
    race: {
      policy: racePolicy(app.races, () => {
        app.signals.nudge();
        app.puzzles.nudge();
      }),
    },
  }),
  config: RACES_CONFIG,
};
