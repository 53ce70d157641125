/**
 * Ratings (docs/ratings.md): Glicko-2 per pool, one rating period per UTC day. People and bots are rated
 * in the same pools' names but only against their own kind (`board`).
 */
import { z } from 'zod';
import { DeprecatedOffsetSchema, NextCursorSchema, pageQuery } from './pagination.js';
import { BoardSchema, PlayerIdSchema } from './daily.js';
import { DateSchema } from './refs.js';

/** The rating pools: dailies and races, per classic preset. */
export const RATING_POOLS = [
  'daily-classic-draw1',
  'daily-classic-draw3',
  'race-classic-draw1',
  'race-classic-draw3',
] as const;
/** A rating pool. */
export const RatingPoolSchema = z.enum(RATING_POOLS);
/** A rating pool. */
export type RatingPool = z.infer<typeof RatingPoolSchema>;

/** One player's rating in one pool (Glicko scale, rounded to whole points). */
export const PlayerRatingSchema = z
  .object({
    rating: z.number().int(),
    /** Rating deviation (points), grown for each closed day without a rated result. */
    deviation: z.number().int().min(0),
    /** Rating periods with a result. */
    games: z.number().int().min(0),
    /** Deviation above the provisional threshold (110): too few games to trust. */
    provisional: z.boolean(),
  })
  .meta({ id: 'PlayerRating' });

/** A player's ratings by pool (pools without a rated result are absent). */
export const PlayerRatingsSchema = z.partialRecord(RatingPoolSchema, PlayerRatingSchema);

/** GET /api/players/:id/ratings: the ratings and one history point per rating period, by pool. */
export const PlayerRatingHistorySchema = z
  .object({
    id: PlayerIdSchema,
    ratings: PlayerRatingsSchema,
    history: z.partialRecord(
      RatingPoolSchema,
      z.array(
        z.object({
          /** The rating period (UTC date). */
          period: DateSchema,
          rating: z.number().int(),
          deviation: z.number().int().min(0),
        }),
      ),
    ),
  })
  .meta({ id: 'PlayerRatingHistory' });

/** Path params of a rating leaderboard. */
export const RatingPoolParamsSchema = z.object({ pool: RatingPoolSchema });

/** GET /api/ratings/:pool query: a page of one board; provisional ratings are left out unless asked for. */
export const RatingLeaderboardQuerySchema = z
  .object({
    ...pageQuery(50, 100),
    offset: DeprecatedOffsetSchema,
    include: z.enum(['provisional']).optional(),
    board: BoardSchema.default('humans'),
  })
  .strict();

/** GET /api/ratings/:pool: a page of a rating leaderboard, best rating first. */
export const RatingLeaderboardSchema = z
  .object({
    pool: RatingPoolSchema,
    board: BoardSchema,
    /** Rows of the board (with the query's `include`). */
    total: z.number().int().min(0),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1),
    nextCursor: NextCursorSchema,
    entries: z.array(
      PlayerRatingSchema.extend({
        rank: z.number().int().min(1),
        playerId: PlayerIdSchema,
        name: z.string(),
      }),
    ),
  })
  .meta({ id: 'RatingLeaderboard' });
