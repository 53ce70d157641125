/**
 * Quick pairing (docs/ratings.md "Quick race"): a pool per classic preset where waiting players are paired by
 * race rating into a 2-seat rated race of a certified deal whose countdown starts at once.
 */
import { z } from 'zod';
import { RaceCodeSchema } from './refs.js';

/** The presets with a pairing pool: the two classic ones (the rated race pools). */
export const PAIRING_PRESETS = ['classic-draw1', 'classic-draw3'] as const;
/** A preset with a pairing pool. */
export const PairingPresetSchema = z.enum(PAIRING_PRESETS);

/** POST /api/pairing body (player token required). */
export const PairingBodySchema = z.object({ preset: PairingPresetSchema }).strict();
/** POST /api/pairing body. */
export type PairingBody = z.infer<typeof PairingBodySchema>;

/**
 * Where the caller stands in the pairing pools (POST, GET and DELETE /api/pairing):
 * - `idle`: in no pool (never entered, left, or the paired race has finished);
 * - `waiting`: in `preset`'s pool since `since` (ISO), `waitedMs` ms so far (server clock), within
 *   `windowPoints` rating points of the players it may be paired with now (the window widens with time);
 * - `paired`: the race `code` was made for the caller and has not finished: open `/race/<code>`.
 */
export const PairingStatusSchema = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('idle') }),
    z.object({
      status: z.literal('waiting'),
      preset: PairingPresetSchema,
      since: z.string(),
      waitedMs: z.number().int().min(0),
      /** Rating points within which an opponent is acceptable now; null: anyone. */
      windowPoints: z.number().int().min(0).nullable(),
    }),
    z.object({ status: z.literal('paired'), preset: PairingPresetSchema, code: RaceCodeSchema }),
  ])
  .meta({ id: 'PairingStatus' });
/** Where the caller stands in the pairing pools. */
export type PairingStatus = z.infer<typeof PairingStatusSchema>;

/** WebSocket server frames of pairing (in ServerFrameSchema). */
export const PairingServerFrameSchemas = [
  /** To every socket that sent `auth` as a player just paired: the race made for them. */
  z.object({ type: z.literal('paired'), code: RaceCodeSchema }),
] as const;
