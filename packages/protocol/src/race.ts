/**
 * Wire protocol of live races (issue "Race a friend on the same deal, live"). Progress frames never carry a
 * card identity: an opponent's face-up cards are cards still hidden in your own game.
 */
import { z } from 'zod';
import { GameIdSchema, GameOptionsSchema, PresetSchema } from './game.js';
import { PlayerIdSchema } from './daily.js';
import { RaceCodeSchema } from './refs.js';
import { MAX_DEAL_NUMBER } from '@klondike/rules';

/** Path params of a race. */
export const RaceParamsSchema = z.object({ code: RaceCodeSchema });

/**
 * Where a race's deal comes from: random (default), a random deal the solver proved winnable, or a deal
 * number the host chose — a known deal, which the room shows to every racer as such.
 */
export const RaceDealSchema = z.union([
  z.literal('random'),
  z.literal('certified'),
  z.object({ dealNumber: z.number().int().min(1).max(MAX_DEAL_NUMBER) }).strict(),
]);

/** Longest race time limit, ms (2 hours). */
export const MAX_RACE_TIME_MS = 2 * 60 * 60 * 1000;

/** POST /api/races body (player token required). */
export const CreateRaceBodySchema = z
  .object({
    preset: PresetSchema.optional(),
    options: GameOptionsSchema.partial().optional(),
    deal: RaceDealSchema.default('random'),
    /** Optional time limit from the start, ms; without one a race ends MAX_RACE_TIME_MS after its start. */
    timeLimitMs: z.number().int().min(60_000).max(MAX_RACE_TIME_MS).optional(),
    /** Seats, 2 … 8 (default 2). */
    maxPlayers: z.number().int().min(2).max(8).default(2),
    /**
     * A rated race (docs/ratings.md): placements move the racers' `race-<preset>` ratings. Classic presets
     * with their default options only (hints off, undo as the preset has it), and a random or certified deal:
     * a known deal, or hints on, is never rated (400).
     */
    rated: z.boolean().default(false),
  })
  .strict();
/** POST /api/races body. */
export type CreateRaceBody = z.infer<typeof CreateRaceBodySchema>;

/** Life of a race room. */
export const RaceStatusSchema = z.enum(['lobby', 'countdown', 'running', 'finished']);

/** Whether a racer is connected: `here`, `away` (disconnected, may come back), `forfeited` (away too long). */
export const PresenceSchema = z.enum(['here', 'away', 'forfeited']);

/** A racer's progress as everyone in the room sees it: counts only, never a card. */
export const RaceProgressSchema = z.object({
  /** Cards on the racer's foundations, 0 … 52. */
  foundationCards: z.number().int().min(0).max(52),
  /** Face-down tableau cards still to turn up. */
  faceDown: z.number().int().min(0).max(21),
  moves: z.number().int().min(0),
  score: z.number().int(),
  /** Race time of the racer, ms (server clock, from the race start). */
  elapsedMs: z.number().int().min(0),
  /** `unfinished`: still playing when another racer won and the race ended. */
  status: z.enum(['playing', 'won', 'blocked', 'resigned', 'forfeited', 'timeout', 'unfinished']),
});

/** One racer in a room. */
export const RacerSchema = z.object({
  playerId: PlayerIdSchema,
  name: z.string(),
  /** A bot account (a room holds only bots or only people). */
  bot: z.boolean(),
  host: z.boolean(),
  ready: z.boolean(),
  presence: PresenceSchema,
  progress: RaceProgressSchema.nullable(),
  /** Final place (1 = first) once the race has finished; racers of equal standing share a place. */
  placement: z.number().int().min(1).nullable(),
  /** An arena racer who went berserk (docs/arenas.md): no undo, no hints, half the time. */
  berserk: z.boolean(),
});

/** A race room as one viewer sees it. `yourGameId` is the viewer's own game (racers only, once running). */
export const RaceSchema = z
  .object({
    code: RaceCodeSchema,
    /** Share link of the room (relative URL). */
    url: z.string(),
    status: RaceStatusSchema,
    preset: PresetSchema.nullable(),
    /** The rules every racer plays, hints and undo included: shown to everyone before the start. */
    options: GameOptionsSchema,
    /**
     * The host chose the deal (a deal number) and may know it: shown in the lobby and kept in the results.
     * Otherwise the deal is a fresh random one nobody knows.
     */
    knownDeal: z.boolean(),
    /** Placements move the racers' race ratings (docs/ratings.md): shown to everyone before the start. */
    rated: z.boolean(),
    /**
     * SHA-256 (hex) of the deal's preimage (docs/fairness.md "Races"), public from the moment the deal is
     * made; the results reveal the preimage. Null while the room has no deal.
     */
    dealCommitment: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    maxPlayers: z.number().int().min(2).max(8),
    timeLimitMs: z.number().int().nullable(),
    /** When the race starts / started (ISO), once the countdown began. */
    startsAt: z.string().nullable(),
    /**
     * Length of the room's countdown, ms (the server's setting): the client's 3-2-1 never shows a digit above
     * it, however late a frame arrives.
     */
    countdownMs: z.number().int().min(0),
    /** When the race ended (ISO). */
    endedAt: z.string().nullable(),
    /** Server time when this was built (ISO), to sync countdowns. */
    serverNow: z.string(),
    racers: z.array(RacerSchema),
    /** Spectators watching now. */
    spectators: z.number().int().min(0),
    /** The viewer: a racer's id, or null for a spectator. */
    you: PlayerIdSchema.nullable(),
    yourGameId: GameIdSchema.nullable(),
    /** The room created by "rematch", once someone asked for one. */
    rematchCode: RaceCodeSchema.nullable(),
    /** The arena this race belongs to (docs/arenas.md), or null. */
    arenaId: RaceCodeSchema.nullable(),
  })
  .meta({ id: 'Race' });
/** A race room. */
export type Race = z.infer<typeof RaceSchema>;

/** POST /api/races/:code/ready body. */
export const ReadyBodySchema = z.object({ ready: z.boolean() }).strict();

/** GET /api/races/:code/results (finished races): placements and each racer's game for the replay. */
export const RaceResultsSchema = z.object({
  code: RaceCodeSchema,
  /** The deal, public once the race has finished (52 codes). */
  deal: z.string(),
  /** The host chose a known deal (see RaceSchema.knownDeal). */
  knownDeal: z.boolean(),
  /**
   * The reveal of the room's `dealCommitment`: the exact preimage (SHA-256 of it = the commitment), the
   * v2 key the deal follows from (rules package `dealFromKey`) or the v1 deal number, and the salt. Null for a
   * room that never had a keyed or numbered deal.
   */
  dealReveal: z
    .object({
      preimage: z.string(),
      dealCommitment: z.string(),
      algorithm: z.enum(['deal-v2', 'deal-v1']),
      key: z.string().nullable(),
      dealNumber: z.number().int().nullable(),
      /**
       * The room's 256-bit random salt (64 lower-case hex), the preimage's last field: it keeps the commitment
       * from giving the deal away before the end (docs/fairness.md "Race commitments are salted"). Null for a
       * race stored before salts, whose preimage has no salt.
       */
      salt: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
    })
    .nullable(),
  results: z.array(
    z.object({
      placement: z.number().int().min(1),
      playerId: PlayerIdSchema,
      name: z.string(),
      progress: RaceProgressSchema,
      /** The racer's game: its replay is public once the race has finished. */
      gameId: GameIdSchema,
      /**
       * A rated race: the racer's race rating before and after this result (whole points); null when the
       * race was not rated or the racer was left out of the rating.
       */
      rating: z.object({ before: z.number().int(), after: z.number().int() }).nullable(),
    }),
  ),
});

/** WebSocket client frames of races (in ClientFrameSchema). */
export const RaceClientFrameSchemas = [
  /** Join the room's live channel as its racer (authed connection) or as a spectator. */
  z.object({ type: z.literal('race-subscribe'), code: RaceCodeSchema }).strict(),
  z.object({ type: z.literal('race-unsubscribe'), code: RaceCodeSchema }).strict(),
] as const;

/** WebSocket server frames of races (in ServerFrameSchema). */
export const RaceServerFrameSchemas = [
  /** The whole room as the receiver sees it (on subscribe and on every room change: join, ready, start, end). */
  z.object({ type: z.literal('race'), race: RaceSchema }),
  /** One racer's progress after each of their moves. */
  z.object({
    type: z.literal('race-progress'),
    code: RaceCodeSchema,
    playerId: PlayerIdSchema,
    progress: RaceProgressSchema,
  }),
] as const;
