/**
 * NDJSON streams over HTTP (docs/api.md "Streams"): `application/x-ndjson`, one JSON object a line, an empty
 * line as a keep-alive. Each stream's lines are one of the unions below; a reader skips empty lines and
 * ignores a `type` it does not know.
 */
import { z } from 'zod';
import { ReplaySchema, PlayerIdSchema } from './daily.js';
import { GameIdSchema, GameKindSchema, MoveSchema, PlayerViewSchema } from './game.js';
import { StateCauseSchema } from './frames.js';
import { DailyPresetSchema, DateSchema, RaceCodeSchema } from './refs.js';

/** The media type of every stream. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/** `?since=` of a game's stream: the version the reader already holds (0 … 2^31−1). */
export const StreamSinceQuerySchema = z.object({
  since: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .meta({
      description:
        'The version the reader already holds: the stream then starts with the actions after it, and its ' +
        'first `state` line is the first one newer than it.',
    }),
});

/** One logged action after `since` (a resumed stream's catch-up), oldest first. */
export const StreamActionLineSchema = z
  .object({
    type: z.literal('action'),
    gameId: GameIdSchema,
    /** The game's version after this action. */
    version: z.number().int().min(1),
    action: z.enum(['move', 'undo', 'resign']),
    /** The move (action `move`). */
    move: MoveSchema.optional(),
    /** The action in the compact notation (`compactAction`). */
    notation: z.string(),
  })
  .meta({ id: 'StreamActionLine' });

/** A game's state as a spectator or its player sees it: the socket's `state` frame. */
export const StreamStateLineSchema = z
  .object({
    type: z.literal('state'),
    gameId: GameIdSchema,
    version: z.number().int().min(0),
    view: PlayerViewSchema,
    cause: StateCauseSchema,
    move: MoveSchema.optional(),
  })
  .meta({ id: 'StreamStateLine' });

/** The last line of a stream that ended on its own (the game ended): the response then closes. */
export const StreamEndLineSchema = z
  .object({
    type: z.literal('end'),
    /**
     * Why: the game ended (`game-over`), an export is complete (`done`), the server is shutting down
     * (`shutdown`: reconnect, with `since` for a game), or the token of the events stream was revoked (`revoked`).
     */
    reason: z.enum(['game-over', 'done', 'shutdown', 'revoked']),
    gameId: GameIdSchema.optional(),
    version: z.number().int().min(0).optional(),
  })
  .meta({ id: 'StreamEndLine' });

/** A line of GET /api/stream/games/:id. */
export const GameStreamLineSchema = z
  .discriminatedUnion('type', [StreamActionLineSchema, StreamStateLineSchema, StreamEndLineSchema])
  .meta({ id: 'GameStreamLine', description: 'One line of a game stream (application/x-ndjson).' });
/** A line of a game stream. */
export type GameStreamLine = z.infer<typeof GameStreamLineSchema>;

/**
 * The caller was invited to a race room: today a rematch, the room another racer of a finished race made
 * (POST /api/races/:code/rematch). Join it by `code` (POST /api/races/:code/join) or ignore it.
 */
export const RaceInvitationLineSchema = z
  .object({
    type: z.literal('race-invitation'),
    /** Why: `rematch` (the new room of a finished race the caller raced in). */
    kind: z.enum(['rematch']),
    /** The room to join. */
    code: RaceCodeSchema,
    /** Who invited: the new room's host. */
    from: z.object({ id: PlayerIdSchema, name: z.string() }),
    /** The finished race it is the rematch of. */
    rematchOf: RaceCodeSchema,
  })
  .meta({ id: 'RaceInvitationLine' });

/** A new UTC day's dailies are playable (once per day on every open events stream). */
export const DailyOpenedLineSchema = z
  .object({
    type: z.literal('daily-opened'),
    /** The day that opened (UTC, YYYY-MM-DD). */
    date: DateSchema,
    /** Its dailies (GET /api/daily/:date/:preset). */
    presets: z.array(DailyPresetSchema),
  })
  .meta({ id: 'DailyOpenedLine' });

/** A line of GET /api/stream/events: what happened to the caller. */
export const EventStreamLineSchema = z
  .discriminatedUnion('type', [
    /** The stream is open: who it is for. */
    z.object({ type: z.literal('open'), playerId: PlayerIdSchema }),
    /** A race was made for the caller (quick pairing, or an arena's pairing): join it by code. */
    z.object({ type: z.literal('paired'), code: RaceCodeSchema }),
    RaceInvitationLineSchema,
    DailyOpenedLineSchema,
    StreamEndLineSchema,
  ])
  .meta({ id: 'EventStreamLine', description: 'One line of the events stream (application/x-ndjson).' });
/** A line of the events stream. */
export type EventStreamLine = z.infer<typeof EventStreamLineSchema>;

/** One finished game of an export or of a closed race's stream: its facts and its replay. */
export const ExportedGameLineSchema = z
  .object({
    type: z.literal('game'),
    id: GameIdSchema,
    kind: GameKindSchema,
    /** Its status when last written (a race game or a closed day's attempt may have stopped while `playing`). */
    status: z.enum(['playing', 'won', 'blocked', 'resigned']),
    score: z.number().int(),
    moves: z.number().int().min(0),
    /** When it was created and when it ended (ISO). */
    createdAt: z.string(),
    endedAt: z.string().nullable(),
    daily: z.object({ date: DateSchema, preset: DailyPresetSchema }).nullable(),
    race: z.object({ code: RaceCodeSchema }).nullable(),
    replay: ReplaySchema,
    /** Every action in the compact notation, space-separated (`compactAction`). */
    notation: z.string(),
  })
  .meta({ id: 'ExportedGameLine' });

/** A line of GET /api/players/:id/games/export or GET /api/stream/races/:code/games. */
export const ExportStreamLineSchema = z
  .discriminatedUnion('type', [ExportedGameLineSchema, StreamEndLineSchema])
  .meta({ id: 'ExportStreamLine', description: 'One line of a games export (application/x-ndjson).' });
/** A line of an export. */
export type ExportStreamLine = z.infer<typeof ExportStreamLineSchema>;

/**
 * An action in the compact notation of the streams: `d` draw, `r` recycle, `l` last pass, `<from><to>` a
 * one-card move (`t3fH`), `<from><to>x<count>` a run (`t3t5x3`), `u` undo, `R` resign.
 */
export function compactAction(action: 'move' | 'undo' | 'resign', move?: z.infer<typeof MoveSchema>): string {
  if (action === 'undo') return 'u';
  if (action === 'resign') return 'R';
  if (move === undefined) return '?';
  switch (move.type) {
    case 'draw':
      return 'd';
    case 'recycle':
      return 'r';
    case 'last-pass':
      return 'l';
    case 'move':
      return `${move.from}${move.to}${move.count > 1 ? `x${move.count}` : ''}`;
  }
}
