/**
 * The room's `state` frame writer (src/core/rooms/state-frame-text.ts) reuses the text of the options and of the
 * tableau piles a move left alone. Whatever the moves (draws, redeals, tableau and foundation moves, undos,
 * R16's last pass), every frame it writes must parse to the frame itself: the view of the state at that
 * moment, not of an earlier one.
 */
import {
  PRESET_NAMES,
  applyAction,
  dealFromNumber,
  legalMoves,
  newGame,
  playerView,
  resolveOptions,
  type GameAction,
  type GameState,
} from '@klondike/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireView } from '../../../src/core/rooms/game-rooms.js';
import { StateFrameText, type StateFrame } from '../../../src/core/rooms/state-frame-text.js';

function frameOf(state: GameState, version: number, action: GameAction | null): StateFrame {
  return {
    type: 'state',
    gameId: 'game-1',
    version,
    view: wireView(playerView(state, version * 1_000)),
    cause: action === null ? 'subscribe' : action.type,
    ...(action?.type === 'move' ? { move: action.move } : {}),
  };
}

describe('state frame text', () => {
  it('parses to the frame after every action of random games, the mover’s request id added', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRESET_NAMES),
        fc.integer({ min: 1, max: 1_000_000 }),
        // Each step: pick a legal move by index, or undo (about one step in eight).
        fc.array(fc.integer({ min: 0, max: 799 }), { minLength: 1, maxLength: 150 }),
        (preset, dealNumber, steps) => {
          const deal = dealFromNumber(dealNumber);
          if (!deal.ok) throw new Error(deal.error.message);
          let state = newGame(deal.value, resolveOptions(preset, { undo: true }));
          const writer = new StateFrameText();
          const first = frameOf(state, 0, null);
          expect(JSON.parse(writer.text(first, state))).toEqual(JSON.parse(JSON.stringify(first)));
          let version = 0;
          for (const step of steps) {
            const moves = legalMoves(state);
            const action: GameAction =
              step % 8 === 7 || moves.length === 0
                ? { type: 'undo' }
                : { type: 'move', move: moves[step % moves.length]! };
            const r = applyAction(state, action);
            if (!r.ok) continue;
            state = r.value;
            version++;
            const frame = frameOf(state, version, action);
            const requestId = version % 3 === 0 ? `r.${version}` : undefined;
            const expected = requestId === undefined ? frame : { ...frame, requestId };
            expect(JSON.parse(writer.text(frame, state, requestId))).toEqual(
              JSON.parse(JSON.stringify(expected)),
            );
          }
        },
      ),
      { numRuns: 60, seed: 20261128 },
    );
  });

  it('writes the same text as JSON.stringify, but for the view coming last', () => {
    const deal = dealFromNumber(7);
    if (!deal.ok) throw new Error(deal.error.message);
    const state = newGame(deal.value, resolveOptions('classic-draw3', {}));
    const frame = frameOf(state, 0, null);
    const { view, ...head } = frame;
    expect(new StateFrameText().text(frame, state, 'x"1')).toBe(
      JSON.stringify({ ...head, requestId: 'x"1', view }),
    );
  });

  it('does not take the text of another game’s state for this one', () => {
    const a = dealFromNumber(1);
    const b = dealFromNumber(2);
    if (!a.ok || !b.ok) throw new Error('deal');
    const writer = new StateFrameText();
    const sa = newGame(a.value, resolveOptions('classic-draw1', {}));
    const sb = newGame(b.value, resolveOptions('classic-draw3', {}));
    writer.text(frameOf(sa, 0, null), sa);
    const fb = frameOf(sb, 0, null);
    expect(JSON.parse(writer.text(fb, sb))).toEqual(JSON.parse(JSON.stringify(fb)));
  });
});
