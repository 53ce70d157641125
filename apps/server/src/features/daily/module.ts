/**
 * The daily challenge's module: `app.daily` and its schedule, the daily routes (the open-data exports
 * included), its socket frames (`watch-leaderboard`, `daily-attempt`), its two kinds of game and its settings:
 * - `daily-practice`: its player's alone while the day is open (daily/policy.ts);
 * - `daily-ranked`: the same, plus one attempt, its leaderboard row committed with its ending, the clock at
 *   midnight; its attempt and result rows are written with its game's (daily/rows.ts).
 */
import { DAILY_FRAMES } from './frame-docs.js';
import type { FeatureModule } from '../../core/feature-module.js';
import { dailyChannel } from './channel.js';
import { DAILY_CONFIG } from './config.js';
import { dailyPlugin } from './plugin.js';
import { dailyPracticePolicy, dailyRankedPolicy } from './policy.js';
import { dailyRoutes } from './routes.js';
import { dailyRankedRows } from './rows.js';

/** The daily challenge's module. */
export const dailyModule: FeatureModule = {
  name: 'daily',
  plugin: dailyPlugin,
  routes: [dailyRoutes],
  channel: (app) => dailyChannel(app.daily, app.rooms),
  frames: DAILY_FRAMES,
  games: (app) => ({
    'daily-practice': { policy: dailyPracticePolicy },
    'daily-ranked': {
      // A settled attempt also asks for its fair-play signals (features/signals).
      policy: dailyRankedPolicy((daily) => {
        app.daily.resultAdded(daily);
        app.signals.nudge();
      }),
      rows: dailyRankedRows,
    },
  }),
  config: DAILY_CONFIG,
};
