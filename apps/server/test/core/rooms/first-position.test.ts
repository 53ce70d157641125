/**
 * A new game's first position (core/rooms/room.ts `newRoom`), memoised by deal and options: games of one deal
 * under the same options share one first position, whatever object carries the options; two different option
 * sets on one deal never share one, each game starting under its own options.
 */
import { type Deal, type GameOptions, PRESETS, SCORING_SYSTEMS, dealFromNumber } from '@klondike/rules';
import { describe, expect, it } from 'vitest';
import { type NewGameSpec, newRoom } from '../../../src/core/rooms/room.js';

/** A fresh array of deal `n` (the memo is per deal array, so each test starts with an empty one). */
function deal(n: number): Deal {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(`deal ${n}`);
  return d.value;
}

/** A casual game's spec of `d` under `options`. */
const spec = (d: Deal, options: GameOptions): NewGameSpec => ({
  kind: 'casual',
  deal: d,
  dealKey: null,
  options,
  preset: null,
  owner: null,
  daily: null,
  raceCode: null,
  clockFromCreation: false,
});

/** Each field's values: every value but `redeals`'s, of which the ends and a few between (0 to 100, or null). */
const VALUES: { readonly [K in keyof GameOptions]-?: readonly GameOptions[K][] } = {
  draw: [1, 3],
  redeals: [null, 0, 1, 2, 3, 99, 100],
  tableauMoves: ['anyRun', 'wholePile'],
  foundationToTableau: [false, true],
  scoring: SCORING_SYSTEMS,
  timed: [false, true],
  undo: [false, true],
  hints: [false, true],
  finalSinglePass: [false, true],
};

/** Every combination of `VALUES` (2,688 option sets), each a new object. */
function everyOptions(): GameOptions[] {
  let sets: Record<string, unknown>[] = [{}];
  for (const [field, values] of Object.entries(VALUES) as [string, readonly unknown[]][])
    sets = sets.flatMap((set) => values.map((value) => ({ ...set, [field]: value })));
  return sets as unknown as GameOptions[];
}

describe('first positions by deal and options', () => {
  it('the same options on the same deal reuse one first position, even from another object in another key order', () => {
    const d = deal(11);
    const a = newRoom(spec(d, { ...PRESETS['vegas-draw3'] }), null, 1_000);
    const p = PRESETS['vegas-draw3'];
    const reversed: GameOptions = {
      finalSinglePass: p.finalSinglePass,
      hints: p.hints,
      undo: p.undo,
      timed: p.timed,
      scoring: p.scoring,
      foundationToTableau: p.foundationToTableau,
      tableauMoves: p.tableauMoves,
      redeals: p.redeals,
      draw: p.draw,
    };
    const b = newRoom(spec(d, reversed), null, 2_000);
    expect(b.room.state).toBe(a.room.state);
    expect(b.view).toBe(a.view);
    // Two games all the same: only their first position is shared.
    expect(b.room.id).not.toBe(a.room.id);
  });

  it('two option sets on the same deal give their own first positions', () => {
    const d = deal(12);
    const draw1 = newRoom(spec(d, PRESETS['classic-draw1']), null, 1_000);
    const draw3 = newRoom(spec(d, PRESETS['classic-draw3']), null, 1_000);
    const noHints = newRoom(spec(d, { ...PRESETS['classic-draw1'], hints: false }), null, 1_000);
    expect(draw3.room.state).not.toBe(draw1.room.state);
    expect(noHints.room.state).not.toBe(draw1.room.state);
    expect(draw1.room.state.options).toEqual(PRESETS['classic-draw1']);
    expect(draw3.room.state.options).toEqual(PRESETS['classic-draw3']);
    expect(noHints.room.state.options).toEqual({ ...PRESETS['classic-draw1'], hints: false });
    expect(noHints.view.options.hints).toBe(false);
    expect(draw1.view.options.hints).toBe(true);
    // A redeal count the API refuses (not an integer) still names its own options.
    const odd = newRoom(spec(d, { ...PRESETS['classic-draw1'], redeals: 1.5 }), null, 1_000);
    const one = newRoom(spec(d, { ...PRESETS['classic-draw1'], redeals: 1 }), null, 1_000);
    expect(odd.room.state).not.toBe(one.room.state);
    expect(odd.room.state.options.redeals).toBe(1.5);
  });

  it('every combination of option values on one deal: each game starts under exactly its own options; the same again shares', () => {
    const d = deal(13);
    const sets = everyOptions();
    expect(sets).toHaveLength(2_688);
    const firsts = sets.map((options) => newRoom(spec(d, options), null, 1_000).room.state);
    expect(new Set(firsts).size).toBe(sets.length);
    sets.forEach((options, i) => {
      expect(firsts[i]?.options).toEqual(options);
      expect(newRoom(spec(d, { ...options }), null, 2_000).room.state).toBe(firsts[i]);
    });
  });
});
