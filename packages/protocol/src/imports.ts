/**
 * POST /api/games/import: a casual game played offline in the browser (the web's /offline page, with the
 * rules package), uploaded by its player. The server replays every action with the rules package and
 * stores the game as imported and unverified (docs/api.md "Imported games").
 */
import { MAX_DEAL_NUMBER } from '@klondike/rules';
import { z } from 'zod';
import { GameIdSchema, GameStatusSchema, MoveSchema, PresetSchema } from './game.js';

/** The most actions one imported game may hold (a longer log is refused with 400 `bad-request`). */
export const MAX_IMPORT_ACTIONS = 2000;

/** The largest POST /api/games/import body, bytes (413 `body-too-large` over it). */
export const MAX_IMPORT_BODY_BYTES = 256 * 1024;

/** One logged action in the public notation: a move, an undo (R14) or a resignation. */
export const GameActionSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('move'), move: MoveSchema }).strict(),
    z.object({ type: z.literal('undo') }).strict(),
    z.object({ type: z.literal('resign') }).strict(),
  ])
  .meta({ id: 'GameAction', description: 'move {move} | undo | resign, in the order they were played' });

/**
 * POST /api/games/import body: `clientId` (the offline game's id in the browser; one upload per player and
 * id is stored), the `preset` and `dealNumber` it was dealt with (deal algorithm v1), and its `actions` in
 * order (at most MAX_IMPORT_ACTIONS).
 */
export const ImportGameBodySchema = z
  .object({
    clientId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/)
      .meta({ description: "the offline game's id in the browser: uploading it again stores nothing new" }),
    preset: PresetSchema,
    dealNumber: z.number().int().min(1).max(MAX_DEAL_NUMBER),
    actions: z.array(GameActionSchema).max(MAX_IMPORT_ACTIONS),
  })
  .strict();
/** POST /api/games/import body. */
export type ImportGameBody = z.infer<typeof ImportGameBodySchema>;

/**
 * POST /api/games/import response: the stored game's id (its replay: GET /api/games/:id/replay once won or
 * resigned), its version (= the number of actions), status, score and moves, and whether this upload
 * created it (false: the same `clientId` was uploaded before, and that game is answered).
 */
export const ImportGameResponseSchema = z
  .object({
    id: GameIdSchema,
    version: z.number().int().min(0),
    status: GameStatusSchema,
    score: z.number().int(),
    moves: z.number().int().min(0),
    created: z.boolean(),
  })
  .meta({ id: 'ImportedGame' });
/** POST /api/games/import response. */
export type ImportGameResponse = z.infer<typeof ImportGameResponseSchema>;
