/**
 * The kinds of game and who declares them. The game log (`GameRooms`) knows games, versions, commits and
 * subscribers; each feature module declares the kinds it owns (`FeatureModule.games`), and this registry
 * gives each kind's policy to the rooms and its rows to the game store:
 *
 * | kind             | declared by               | adds                                                 |
 * | ---------------- | ------------------------- | ---------------------------------------------------- |
 * | `casual`         | core/games/module.ts      | nothing (`casualPolicy`)                             |
 * | `daily-practice` | features/daily/module.ts  | its player's alone while the day is open             |
 * | `daily-ranked`   | features/daily/module.ts  | the same, plus one attempt, its leaderboard row      |
 * |                  |                           | committed with its ending, the clock at midnight     |
 * | `race`           | features/races/module.ts  | the racer's alone during the race; progress frames   |
 *
 * A kind nobody declares keeps the casual rules (rooms/policies.ts `CASUAL_ONLY`).
 */
import type { GameKind } from '@klondike/protocol';
import type { KindRows } from '../../infra/db/game-store.js';
import type { GameKinds } from '../feature-module.js';
import { CASUAL_ONLY, type GamePolicies, type GamePolicy } from '../rooms/policies.js';

/** What the registry needs of the rooms: to be given every kind's policy at once. */
export interface PolicyTaker {
  usePolicies(policies: GamePolicies): void;
}

/** The kinds of game declared so far (plugin `game-rooms` decorates `app.gameKinds` with it). */
export class GameKindRegistry {
  private policies: Record<GameKind, GamePolicy> = { ...CASUAL_ONLY };
  private readonly declared = new Set<GameKind>();

  /**
   * `rooms` takes the policies; `rows` is the record of each kind's rows that the game store reads at each
   * write (filled in place by `declare`).
   */
  constructor(
    private readonly rooms: PolicyTaker,
    private readonly rows: Partial<Record<GameKind, KindRows>>,
  ) {}

  /**
   * Declares the policy (and rows) of each kind in `kinds`. Call before the first game is created: from
   * `app.ts`, between the plugins and the routes.
   * Errors: throws when a kind was already declared (two features claiming one kind).
   */
  declare(kinds: GameKinds): void {
    for (const [kind, spec] of Object.entries(kinds) as [GameKind, GameKinds[GameKind]][]) {
      if (spec === undefined) continue;
      if (this.declared.has(kind)) throw new Error(`game kind ${kind} is declared twice`);
      this.declared.add(kind);
      this.policies = { ...this.policies, [kind]: spec.policy };
      if (spec.rows !== undefined) this.rows[kind] = spec.rows;
    }
    this.rooms.usePolicies(this.policies);
  }

  /** The kinds declared so far. */
  get kinds(): readonly GameKind[] {
    return [...this.declared];
  }
}
