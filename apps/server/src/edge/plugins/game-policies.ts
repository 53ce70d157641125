/**
 * Plugin `game-policies`: the one place where each kind of game gets its rules (rooms/policies.ts). The
 * game log (`app.rooms`) knows games, versions, commits and subscribers; the daily and the race bring the
 * rest:
 *
 * | kind             | policy                                  | adds                                               |
 * | ---------------- | --------------------------------------- | -------------------------------------------------- |
 * | `casual`         | `casualPolicy` (rooms/policies.ts)      | nothing                                            |
 * | `daily-practice` | `dailyPracticePolicy` (daily/policy.ts) | its player's alone while the day is open           |
 * | `daily-ranked`   | `dailyRankedPolicy` (daily/policy.ts)   | the same, plus one attempt, its leaderboard row    |
 * |                  |                                         | committed with its ending, the clock at midnight   |
 * | `race`           | `racePolicy` (races/policy.ts)          | the racer's alone during the race; progress frames |
 */
import fp from 'fastify-plugin';
import { dailyPracticePolicy, dailyRankedPolicy } from '../../features/daily/policy.js';
import { racePolicy } from '../../features/races/policy.js';
import { casualPolicy } from '../../core/rooms/policies.js';
import '../../types.js';

/** Declares the policy of every kind of game. */
export const gamePoliciesPlugin = fp(
  async (app) => {
    app.rooms.usePolicies({
      casual: casualPolicy,
      'daily-practice': dailyPracticePolicy,
      'daily-ranked': dailyRankedPolicy((daily) => app.daily.resultAdded(daily)),
      race: racePolicy(app.races),
    });
  },
  { name: 'game-policies', fastify: '5.x', dependencies: ['game-rooms', 'daily', 'races'] },
);
