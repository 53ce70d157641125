/**
 * @klondike/protocol — zod schemas for every REST body/response and WebSocket frame, shared by the server
 * and the web client.
 */
export * from './refs.js';
export * from './game.js';
export * from './daily.js';
export * from './race.js';
export * from './frames.js';
export * from './settings.js';
export * from './stats.js';
export * from './ratings.js';
export * from './pairing.js';
export * from './arena.js';
export * from './fair-play.js';
export * from './review.js';
export * from './status.js';
export * from './puzzles.js';
export * from './streams.js';
export * from './tokens.js';
export * from './pagination.js';
export * from './imports.js';
