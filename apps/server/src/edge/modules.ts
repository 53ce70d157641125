/**
 * The server's modules, in registration order: the one list a new feature joins (docs/architecture.md
 * "A feature is a folder"). `app.ts` registers every module's plugin in this order, then declares their
 * kinds of game, then (after the edge's plugins) their routes; `edge/config.ts` reads their settings.
 *
 * A plugin comes after every plugin it names in its `dependencies` (fastify-plugin refuses otherwise):
 * games (`game-rooms`), solve (`solver`), players (`auth`), fairness (`fair-play`) and ratings need only
 * the infrastructure; daily needs game-rooms, solver and ratings; races needs fair-play, game-rooms, solver
 * and ratings; pairing needs races and ratings; arenas needs races, pairing and daily (`app.dailyJobs`);
 * maintenance needs game-rooms and races; moderation needs auth; review needs game-rooms and solver; status
 * needs game-rooms, solver and daily; signals needs the solver; puzzles needs game-rooms and the solver; these two come last so that they close first
 * (a running pass still uses the solver's threads). The order also sets the order of the plugins' close hooks and
 * of the paths in the OpenAPI document (so a change regenerates the client's types,
 * packages/client/src/generated/openapi.ts).
 */
import type { FeatureModule } from '../core/feature-module.js';
import { gamesModule } from '../core/games/module.js';
import { arenasModule } from '../features/arenas/module.js';
import { dailyModule } from '../features/daily/module.js';
import { fairnessModule } from '../features/fairness/module.js';
import { maintenanceModule } from '../features/maintenance/module.js';
import { moderationModule } from '../features/moderation/module.js';
import { pairingModule } from '../features/pairing/module.js';
import { puzzlesModule } from '../features/puzzles/module.js';
import { playersModule } from '../features/players/module.js';
import { racesModule } from '../features/races/module.js';
import { ratingsModule } from '../features/ratings/module.js';
import { reviewModule } from '../features/review/module.js';
import { signalsModule } from '../features/signals/module.js';
import { solveModule } from '../features/solve/module.js';
import { statusModule } from '../features/status/module.js';

/** Every module of the server, in registration order. */
export const MODULES: readonly FeatureModule[] = [
  gamesModule,
  solveModule,
  playersModule,
  fairnessModule,
  ratingsModule,
  dailyModule,
  racesModule,
  pairingModule,
  arenasModule,
  maintenanceModule,
  moderationModule,
  reviewModule,
  statusModule,
  signalsModule,
  puzzlesModule,
];
