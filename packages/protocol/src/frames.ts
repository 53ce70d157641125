/**
 * WebSocket frames (/api/ws): every client → server and server → client frame, for games, daily
 * leaderboards and races. Frames larger than MAX_FRAME_BYTES are refused.
 */
import { z } from 'zod';
import {
  API_ERROR_CODES,
  GameIdSchema,
  GameResponseSchema,
  MoveErrorCodeSchema,
  MoveSchema,
  PlayerViewSchema,
} from './game.js';
import { DailyPresetSchema, DateSchema } from './refs.js';
import { RaceClientFrameSchemas, RaceServerFrameSchemas } from './race.js';
import { PairingServerFrameSchemas } from './pairing.js';
import { ArenaClientFrameSchemas, ArenaServerFrameSchemas } from './arena.js';

// ---------- WebSocket (/api/ws) ----------

/** Client → server frames. `requestId` is echoed on the answer. */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('subscribe'),
      gameId: GameIdSchema,
      version: z.number().int().min(0).optional(),
    })
    .strict(),
  z.object({ type: z.literal('unsubscribe'), gameId: GameIdSchema }).strict(),
  z
    .object({
      type: z.literal('move'),
      gameId: GameIdSchema,
      move: MoveSchema,
      version: z.number().int().min(0),
      requestId: z.string().max(64).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('undo'),
      gameId: GameIdSchema,
      version: z.number().int().min(0),
      requestId: z.string().max(64).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('resign'),
      gameId: GameIdSchema,
      version: z.number().int().min(0),
      requestId: z.string().max(64).optional(),
    })
    .strict(),
  z.object({ type: z.literal('ping') }).strict(),
  ...RaceClientFrameSchemas,
  ...ArenaClientFrameSchemas,
  /** Identifies the connection as a player (browsers cannot set headers on a WebSocket). */
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(200) }).strict(),
  /** Live updates of a daily leaderboard (`leaderboard` frames) while the day is open. */
  z
    .object({
      type: z.literal('watch-leaderboard'),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      preset: z.enum(['classic-draw1', 'classic-draw3']),
    })
    .strict(),
  /**
   * Opens the caller's one ranked attempt at today's daily, as `POST /api/daily/:date/:preset/attempt` does
   * (scope `daily:play`; a second attempt or a closed day → `conflict`): answered with `daily-opened`, and the
   * connection follows the new game from then on, as after a `subscribe`. Needs `auth` first.
   */
  z
    .object({
      type: z.literal('daily-attempt'),
      date: DateSchema,
      preset: DailyPresetSchema,
      requestId: z.string().max(64).optional(),
    })
    .strict(),
]);
/** A client frame. */
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** What caused a state frame. */
export const StateCauseSchema = z.enum(['subscribe', 'move', 'undo', 'resign']);

/** Server → client frames. */
export const ServerFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('state'),
    gameId: GameIdSchema,
    version: z.number().int().min(0),
    view: PlayerViewSchema,
    cause: StateCauseSchema,
    /** The move that produced this state (cause = move). */
    move: MoveSchema.optional(),
    requestId: z.string().optional(),
  }),
  z.object({
    type: z.literal('error'),
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    gameId: GameIdSchema.optional(),
    version: z.number().int().min(0).optional(),
    reason: MoveErrorCodeSchema.optional(),
    requestId: z.string().optional(),
  }),
  z.object({ type: z.literal('pong') }),
  ...RaceServerFrameSchemas,
  ...PairingServerFrameSchemas,
  ...ArenaServerFrameSchemas,
  /** Answer to `auth`: who the connection now is. */
  z.object({ type: z.literal('authed'), playerId: z.string(), name: z.string() }),
  /** A watched daily leaderboard changed (a ranked attempt finished): refetch it. */
  z.object({
    type: z.literal('leaderboard'),
    date: z.string(),
    preset: z.enum(['classic-draw1', 'classic-draw3']),
    total: z.number().int().min(0),
  }),
  /**
   * Answer to `daily-attempt`: the ranked game as the REST route's 201 answers it; the connection is
   * subscribed to it (its later `state` frames follow).
   */
  z.object({
    type: z.literal('daily-opened'),
    game: GameResponseSchema,
    requestId: z.string().optional(),
  }),
]);
/** A server frame. */
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
