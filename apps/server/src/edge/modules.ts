/**
 * The server's modules, in registration order: the one list a new feature joins (docs/architecture.md
 * "A feature is a folder"). `app.ts` registers every module's plugin in this order, then declares their
 * kinds of game, then (after the edge's plugins) their routes; `edge/config.ts` reads their settings.
 *
 * A plugin comes after every plugin it names in its `dependencies` (fastify-plugin refuses otherwise):
 * players (`auth`) and fairness (`fair-play`) need only the infrastructure; games (`game-rooms`) the
 * infrastructure; solve (`solver`) and ratings nothing more; daily needs game-rooms, solver and ratings;
 * races needs fair-play, game-rooms, solver and ratings; pairing needs races and ratings; arenas needs
 * races, pairing and daily (`app.dailyJobs`); maintenance needs game-rooms and races. The order also sets
 * the order of their close hooks: it is the order the plugins had before the modules (issue 54).
 */
import type { FeatureModule } from '../core/feature-module.js';
import { gamesModule } from '../core/games/module.js';
import { arenasModule } from '../features/arenas/module.js';
import { dailyModule } from '../features/daily/module.js';
import { fairnessModule } from '../features/fairness/module.js';
import { maintenanceModule } from '../features/maintenance/module.js';
import { pairingModule } from '../features/pairing/module.js';
import { playersModule } from '../features/players/module.js';
import { racesModule } from '../features/races/module.js';
import { ratingsModule } from '../features/ratings/module.js';
import { solveModule } from '../features/solve/module.js';

/** Every module of the server, in registration order. */
export const MODULES: readonly FeatureModule[] = [
  playersModule,
  fairnessModule,
  gamesModule,
  solveModule,
  ratingsModule,
  dailyModule,
  racesModule,
  pairingModule,
  arenasModule,
  maintenanceModule,
];
