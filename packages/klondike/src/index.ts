/**
 * @klondike/rules — the pure Klondike rules package (docs/rules.md). No I/O, no clock, no randomness beyond the
 * seeded deal. Every function takes a state and returns a new one or a typed error.
 */
export * from './cards.js';
export * from './result.js';
export * from './options.js';
export * from './deal.js';
export * from './moves.js';
export * from './state.js';
export * from './view.js';
export * from './view-rules.js';
export * from './game.js';
export { legalMoves } from './legal-moves.js';
export * from './status.js';
export * from './auto.js';
export * from './player-view.js';
