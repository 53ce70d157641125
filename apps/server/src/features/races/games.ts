/**
 * A race's games (races/service.ts, "Start"): at the countdown's end the server makes every racer's game —
 * the same deal and options, owned by the racer, its clock from the first move.
 */
import { GameOptionsSchema } from '@klondike/protocol';
import { isPresetName, parseDeal } from '@klondike/rules';
import type { NewGameSpec } from '../../core/rooms/game-rooms.js';
import type { RaceRow } from './repository.js';

/**
 * The game of each racer of the room, in seat order. A berserk arena racer plays without undo and hints
 * (docs/arenas.md "Berserk"). Throws when the stored deal is unreadable.
 */
export function raceGameSpecs(row: RaceRow): { playerId: string; spec: NewGameSpec }[] {
  const deal = parseDeal(row.deal);
  if (!deal.ok) throw new Error(`race ${row.code}: stored deal unreadable`);
  const options = GameOptionsSchema.parse(row.options);
  const preset = row.preset !== null && isPresetName(row.preset) ? row.preset : null;
  return row.racers.map((racer) => ({
    playerId: racer.playerId,
    spec: {
      kind: 'race',
      deal: deal.value,
      dealKey: row.dealKey,
      options: racer.berserk ? { ...options, undo: false, hints: false } : options,
      preset,
      owner: racer.playerId,
      daily: null,
      raceCode: row.code,
      clockFromCreation: false,
    },
  }));
}
