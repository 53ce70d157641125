/** The registry of kinds of game: each feature declares its kinds once; the rooms get every policy. */
import type { GameKind } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import { GameKindRegistry } from '../../../src/core/games/kinds.js';
import type { GamePolicies, GamePolicy } from '../../../src/core/rooms/policies.js';
import type { KindRows } from '../../../src/infra/db/game-store.js';

/** A registry over a recording stand-in for the rooms and an empty rows record. */
function registry(): {
  kinds: GameKindRegistry;
  given: GamePolicies[];
  rows: Partial<Record<GameKind, KindRows>>;
} {
  const given: GamePolicies[] = [];
  const rows: Partial<Record<GameKind, KindRows>> = {};
  return { kinds: new GameKindRegistry({ usePolicies: (p) => given.push(p) }, rows), given, rows };
}

describe('GameKindRegistry', () => {
  it('gives the rooms every kind’s policy, the undeclared kinds keeping the casual rules', () => {
    const { kinds, given } = registry();
    const race: GamePolicy = { over: () => true };
    kinds.declare({ race: { policy: race } });
    expect(given).toHaveLength(1);
    expect(given[0]?.race).toBe(race);
    expect(given[0]?.['daily-ranked']).toEqual({});
    expect(kinds.kinds).toEqual(['race']);
  });

  it('later declarations add to the earlier ones', () => {
    const { kinds, given } = registry();
    const practice: GamePolicy = { over: () => false };
    const race: GamePolicy = { over: () => true };
    kinds.declare({ 'daily-practice': { policy: practice } });
    kinds.declare({ race: { policy: race } });
    expect(given.at(-1)?.['daily-practice']).toBe(practice);
    expect(given.at(-1)?.race).toBe(race);
  });

  it('puts a kind’s rows in the store’s record', () => {
    const { kinds, rows } = registry();
    const ranked: KindRows = { result: () => Promise.resolve(true) };
    kinds.declare({ 'daily-ranked': { policy: {}, rows: ranked } });
    expect(rows['daily-ranked']).toBe(ranked);
    expect(rows.casual).toBeUndefined();
  });

  it('refuses a kind declared twice', () => {
    const { kinds } = registry();
    kinds.declare({ casual: { policy: {} } });
    expect(() => kinds.declare({ casual: { policy: {} } })).toThrow(/game kind casual is declared twice/);
  });
});
