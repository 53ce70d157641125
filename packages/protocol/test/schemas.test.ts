/**
 * The wire schemas against the rules package they describe: every view and move the rules produce in random
 * play parses and survives a JSON round trip unchanged, and malformed frames and bodies are refused.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PRESET_NAMES,
  applyMove,
  dealFromNumber,
  gameStatus,
  legalMoves,
  newGame,
  playerView,
  resolveOptions,
  undo,
  type GameState,
} from '@klondike/rules';
import {
  ClientFrameSchema,
  CreateGameBodySchema,
  ErrorBodySchema,
  MoveBodySchema,
  MoveSchema,
  PlayerViewSchema,
  ServerFrameSchema,
  SolveBodySchema,
} from '../src/index.js';

/** JSON round trip, as a frame travels. */
function wire<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** Random play from deal `n` under `preset`, choosing moves with `pick` (0 ≤ pick < 1). */
function* randomPlay(
  n: number,
  preset: (typeof PRESET_NAMES)[number],
  picks: number[],
): Generator<GameState> {
  const deal = dealFromNumber(n);
  if (!deal.ok) throw new Error(deal.error.message);
  let state = newGame(deal.value, resolveOptions(preset));
  yield state;
  for (const pick of picks) {
    if (gameStatus(state) !== 'playing') return;
    const moves = legalMoves(state);
    if (moves.length === 0) return;
    if (pick > 0.95 && state.history !== null) {
      const back = undo(state);
      if (back.ok) state = back.value;
    } else {
      const r = applyMove(state, moves[Math.floor(pick * moves.length)]!);
      if (!r.ok) throw new Error(`listed move refused: ${r.error.code}`);
      state = r.value;
    }
    yield state;
  }
}

describe('views and moves of the rules package', () => {
  it('every player view and legal move of random play parses and round-trips exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 32 - 1 }),
        fc.constantFrom(...PRESET_NAMES),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 120 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (n, preset, picks, elapsedMs) => {
          for (const state of randomPlay(n, preset, picks)) {
            const view = playerView(state, elapsedMs);
            expect(PlayerViewSchema.parse(wire(view))).toEqual(view);
            for (const move of legalMoves(state)) expect(MoveSchema.parse(wire(move))).toEqual(move);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a state frame carrying a real view parses as a server frame', () => {
    const deal = dealFromNumber(617);
    if (!deal.ok) throw new Error('deal');
    const view = playerView(newGame(deal.value, resolveOptions('classic-draw3')), 0);
    const frame = { type: 'state', gameId: 'g1', version: 0, view, cause: 'subscribe' };
    expect(ServerFrameSchema.parse(wire(frame))).toEqual(frame);
  });
});

describe('refusals', () => {
  const goodMove = { type: 'move', from: 't3', to: 'fH', count: 1 };

  it.each([
    ['an unknown move type', { type: 'jump' }],
    ['an unknown pile', { ...goodMove, from: 't8' }],
    ['a zero count', { ...goodMove, count: 0 }],
    ['a count above a full run', { ...goodMove, count: 14 }],
    ['a fractional count', { ...goodMove, count: 1.5 }],
    ['a count as a string', { ...goodMove, count: '1' }],
    ['an extra key', { ...goodMove, extra: true }],
    ['a draw with a pile', { type: 'draw', from: 'stock' }],
    ['R16: a last pass with a count', { type: 'last-pass', count: 1 }],
    ['no type', { from: 't1', to: 't2', count: 1 }],
  ])('a move: %s', (_what, move) => {
    expect(MoveSchema.safeParse(move).success).toBe(false);
  });

  it('accepts the four kinds of move of the notation (R16: the last pass)', () => {
    for (const m of [{ type: 'draw' }, { type: 'recycle' }, { type: 'last-pass' }, goodMove])
      expect(MoveSchema.safeParse(m).success).toBe(true);
  });

  it.each([
    ['a negative version', { type: 'move', gameId: 'g1', move: { type: 'draw' }, version: -1 }],
    ['a missing version', { type: 'move', gameId: 'g1', move: { type: 'draw' } }],
    ['a game id with a slash', { type: 'subscribe', gameId: '../etc' }],
    ['an over-long request id', { type: 'undo', gameId: 'g1', version: 0, requestId: 'x'.repeat(65) }],
    ['an unknown frame type', { type: 'teleport' }],
    ['a prototype key', JSON.parse('{"type":"ping","__proto__":{"x":1}}') as unknown],
    ['an empty auth token', { type: 'auth', token: '' }],
    [
      'a leaderboard of a non-daily preset',
      { type: 'watch-leaderboard', date: '2026-11-22', preset: 'bicycle' },
    ],
    ['a malformed date', { type: 'watch-leaderboard', date: '22/11/2026', preset: 'classic-draw1' }],
  ])('a client frame: %s', (_what, frame) => {
    expect(ClientFrameSchema.safeParse(frame).success).toBe(false);
  });

  it('accepts well-formed client frames', () => {
    for (const f of [
      { type: 'subscribe', gameId: 'g1', version: 3 },
      { type: 'move', gameId: 'g1', move: goodMove, version: 0, requestId: 'r1' },
      { type: 'undo', gameId: 'g1', version: 4 },
      { type: 'resign', gameId: 'g1', version: 4 },
      { type: 'ping' },
      { type: 'auth', token: 'abc' },
      { type: 'watch-leaderboard', date: '2026-11-22', preset: 'classic-draw3' },
    ])
      expect(ClientFrameSchema.parse(f)).toEqual(f);
  });

  it('a game body gives a deal or a deal number, not both, and only known presets', () => {
    expect(CreateGameBodySchema.safeParse({ dealNumber: 5, deal: 'AC' }).success).toBe(false);
    expect(CreateGameBodySchema.safeParse({ preset: 'spider' }).success).toBe(false);
    expect(CreateGameBodySchema.safeParse({ dealNumber: 0 }).success).toBe(false);
    expect(CreateGameBodySchema.safeParse({ dealNumber: 2 ** 32 }).success).toBe(false);
    expect(CreateGameBodySchema.safeParse({ options: { draw: 2 } }).success).toBe(false);
    expect(CreateGameBodySchema.safeParse({ preset: 'vegas-draw3', dealNumber: 617 }).success).toBe(true);
    expect(CreateGameBodySchema.safeParse({ preset: 'draw3-last-pass' }).success).toBe(true);
    expect(CreateGameBodySchema.safeParse({ options: { finalSinglePass: true } }).success).toBe(true);
    expect(CreateGameBodySchema.safeParse({ options: { finalSinglePass: 1 } }).success).toBe(false);
  });

  it('a solve body needs exactly one of deal and deal number, and a bounded time limit', () => {
    expect(SolveBodySchema.safeParse({}).success).toBe(false);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, timeLimitMs: 0 }).success).toBe(false);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, timeLimitMs: 60_001 }).success).toBe(false);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, timeLimitMs: 500 }).success).toBe(true);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, maxNodes: 60_000_000 }).success).toBe(true);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, maxNodes: 60_000_001 }).success).toBe(false);
    expect(SolveBodySchema.safeParse({ dealNumber: 1, maxNodes: 0 }).success).toBe(false);
  });

  it('a move body is strict', () => {
    expect(MoveBodySchema.safeParse({ move: { type: 'draw' }, version: 0, score: 9999 }).success).toBe(false);
  });

  it('an error body carries a known code', () => {
    expect(ErrorBodySchema.safeParse({ error: { code: 'teapot', message: 'x' } }).success).toBe(false);
    expect(
      ErrorBodySchema.safeParse({ error: { code: 'stale-version', message: 'x', version: 3 } }).success,
    ).toBe(true);
  });
});
