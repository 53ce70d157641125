/**
 * The player's own game in a race: a second `useGame` next to the table's, created once (in its own effect
 * scope, so it outlives the race page that first asks for it) when a race page needs it.
 */
import { effectScope } from 'vue';
import { useGame, type Game } from './useGame';
import type { Socket } from './useSocket';

let shared: Game | null = null;

export function useRaceGame(socket: Socket): Game {
  shared ??= effectScope(true).run(() => useGame(socket)) as Game;
  return shared;
}
