/**
 * Arenas (docs/arenas.md): scheduled or player-made tournaments of quick 2-seat races. While an arena runs,
 * its waiting players are paired again as soon as their race ends; a win scores 2, doubled while on fire
 * (after two wins in a row), and a won berserk race adds 1.
 */
import { z } from 'zod';
import { NextCursorSchema, pageQuery } from './pagination.js';
import { PlayerIdSchema, deceptiveNameProblem } from './daily.js';
import { PairingPresetSchema } from './pairing.js';
import { RaceCodeSchema } from './refs.js';

/** An arena id: 10 characters of the race code alphabet. */
export const ArenaIdSchema = RaceCodeSchema.describe('arena id');
/** Path params of an arena. */
export const ArenaParamsSchema = z.object({ id: ArenaIdSchema });

/** Shortest and longest arena, ms (5 minutes … 1 day). */
export const MIN_ARENA_MS = 5 * 60_000;
export const MAX_ARENA_MS = 24 * 60 * 60_000;

/** POST /api/arenas body (player token required). */
export const CreateArenaBodySchema = z
  .object({
    preset: PairingPresetSchema,
    durationMs: z.number().int().min(MIN_ARENA_MS).max(MAX_ARENA_MS),
    /** When it starts (ISO); default now. At most 7 days ahead. */
    startsAt: z.iso.datetime().optional(),
    /** Its name: no invisible, filler or bidi-control character, no word mixing look-alike alphabets. */
    name: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .superRefine((n, ctx) => {
        const problem = deceptiveNameProblem(n);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** Only players with the arena's invite code may join (the creator gets it). */
    inviteOnly: z.boolean().default(false),
    /** Rated races (default); false: friendly. */
    rated: z.boolean().default(true),
  })
  .strict();
/** POST /api/arenas body. */
export type CreateArenaBody = z.infer<typeof CreateArenaBodySchema>;

/** POST /api/arenas/:id/join body: the invite code of an invite-only arena. */
export const JoinArenaBodySchema = z.object({ inviteCode: z.string().max(64).optional() }).strict();

/** Life of an arena. */
export const ArenaStatusSchema = z.enum(['upcoming', 'running', 'finished']);

/** One player's line in an arena's standings. */
export const ArenaStandingSchema = z.object({
  rank: z.number().int().min(1),
  playerId: PlayerIdSchema,
  name: z.string(),
  points: z.number().int().min(0),
  games: z.number().int().min(0),
  wins: z.number().int().min(0),
  /** Wins in a row now. */
  streak: z.number().int().min(0),
  /** On fire: the next win counts double (after two wins in a row). */
  fire: z.boolean(),
  /** Paused: not paired until they come back. */
  paused: z.boolean(),
});

/** An arena as the list shows it. */
export const ArenaSummarySchema = z.object({
  id: ArenaIdSchema,
  name: z.string(),
  preset: PairingPresetSchema,
  status: ArenaStatusSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  rated: z.boolean(),
  inviteOnly: z.boolean(),
  /** An arena of the bot board (bots only). */
  bots: z.boolean(),
  /** Time limit of each race, ms. */
  raceTimeLimitMs: z.number().int().min(0),
  players: z.number().int().min(0),
  /** Made by the server's schedule (null: made by a player). */
  scheduled: z.boolean(),
  /**
   * An official arena: one of the server's schedule (the same as `scheduled`). Official arenas come first in
   * the list's upcoming and running parts and are never pushed off it by players' arenas.
   */
  official: z.boolean(),
});

/** GET /api/arenas/:id: the arena, its standings, the caller's own state, and once finished its podium. */
export const ArenaSchema = ArenaSummarySchema.extend({
  /** Server time now (ISO), for countdowns. */
  serverNow: z.string(),
  standings: z.array(ArenaStandingSchema),
  /** The caller (a token sent): joined or not, paused, their current race. */
  me: z
    .object({
      joined: z.boolean(),
      paused: z.boolean(),
      /** The caller's race now (countdown or running), or null while waiting. */
      pairedRace: RaceCodeSchema.nullable(),
      /** The invite code (the creator of an invite-only arena). */
      inviteCode: z.string().nullable(),
    })
    .nullable(),
  /** The first three once finished, else null. */
  podium: z.array(ArenaStandingSchema).nullable(),
}).meta({ id: 'Arena' });
/** An arena. */
export type Arena = z.infer<typeof ArenaSchema>;

/** GET /api/arenas: upcoming, running and recently finished arenas. */
export const ArenaListSchema = z
  .object({
    upcoming: z.array(ArenaSummarySchema),
    running: z.array(ArenaSummarySchema),
    finished: z.array(ArenaSummarySchema),
    nextCursor: NextCursorSchema,
  })
  .meta({ id: 'ArenaList' });

/**
 * GET /api/arenas query: a page of the finished arenas (newest first); the first page also lists every
 * upcoming and running one, later pages none.
 */
export const ArenaListQuerySchema = z.object(pageQuery(20, 100));

/** WebSocket client frames of arenas (in ClientFrameSchema). */
export const ArenaClientFrameSchemas = [
  /** Live standings of an arena (and `paired` frames for the caller's pairings, after `auth`). */
  z.object({ type: z.literal('arena-subscribe'), id: ArenaIdSchema }).strict(),
  z.object({ type: z.literal('arena-unsubscribe'), id: ArenaIdSchema }).strict(),
] as const;

/** WebSocket server frames of arenas (in ServerFrameSchema). */
export const ArenaServerFrameSchemas = [
  /** The arena as the receiver sees it: on subscribe and on every change of its standings or status. */
  z.object({ type: z.literal('arena'), arena: ArenaSchema }),
] as const;
