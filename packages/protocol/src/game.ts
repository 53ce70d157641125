/**
 * Wire protocol: zod schemas for every REST body and response and every WebSocket frame.
 * The server validates with them (fastify-type-provider-zod, which also feeds /docs); the web client
 * parses incoming frames with them. The notation is that of docs/protocol.md ("Notation").
 */
import { z } from 'zod';
import { DailyPresetSchema, DateSchema, RaceCodeSchema } from './refs.js';
import {
  CARD_CODES,
  FOUNDATION_PILES,
  GAME_STATUSES,
  LAST_PASS_STATES,
  MAX_DEAL_NUMBER,
  MOVE_ERROR_CODES,
  PILE_IDS,
  PRESET_NAMES,
  SCORING_SYSTEMS,
  type CardCode,
  type GameOptions,
  type Move,
  type PlayerView,
} from '@klondike/rules';

/** Largest accepted WebSocket frame, in bytes. */
export const MAX_FRAME_BYTES = 4096;

/** A card code such as `TH`. */
export const CardCodeSchema = z
  .enum(CARD_CODES as [CardCode, ...CardCode[]])
  .meta({ description: 'Card code: rank A23456789TJQK + suit CDHS' });
/** A pile name: stock, waste, t1…t7, fC fD fH fS. */
export const PileIdSchema = z.enum(PILE_IDS);
/** A preset name of docs/rules.md. */
export const PresetSchema = z.enum(PRESET_NAMES);
/** A game id. */
export const GameIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** A move in the public notation (docs/protocol.md "Notation"). */
export const MoveSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('draw') }).strict(),
    z.object({ type: z.literal('recycle') }).strict(),
    z.object({ type: z.literal('last-pass') }).strict(),
    z
      .object({
        type: z.literal('move'),
        from: PileIdSchema,
        to: PileIdSchema,
        count: z.number().int().min(1).max(13),
      })
      .strict(),
  ])
  .meta({
    id: 'Move',
    description:
      'draw | recycle | last-pass (R16: in place of a redeal, then one card per draw) | move {from,to,count}',
  }) satisfies z.ZodType<Move>;

/** Every variant option; all of them required (as in a view). */
export const GameOptionsSchema = z
  .object({
    draw: z.union([z.literal(1), z.literal(3)]),
    redeals: z.number().int().min(0).max(100).nullable(),
    tableauMoves: z.enum(['anyRun', 'wholePile']),
    foundationToTableau: z.boolean(),
    scoring: z.enum(SCORING_SYSTEMS),
    timed: z.boolean(),
    undo: z.boolean(),
    hints: z.boolean(),
    finalSinglePass: z.boolean().meta({
      description: 'R16: once, in place of a redeal, a last pass through the stock one card at a time',
    }),
  })
  .strict()
  .meta({ id: 'GameOptions' }) satisfies z.ZodType<GameOptions>;

/** Game status (docs/rules.md R12, R13). */
export const GameStatusSchema = z.enum(GAME_STATUSES);

/** What a player may see of a game (the rules package's `playerView`). */
export const PlayerViewSchema = z
  .object({
    options: GameOptionsSchema,
    tableau: z
      .array(z.object({ faceDown: z.number().int().min(0), faceUp: z.array(CardCodeSchema) }).strict())
      .length(7),
    foundations: z
      .object({
        fC: CardCodeSchema.nullable(),
        fD: CardCodeSchema.nullable(),
        fH: CardCodeSchema.nullable(),
        fS: CardCodeSchema.nullable(),
      })
      .strict(),
    stock: z.object({ count: z.number().int().min(0) }).strict(),
    waste: z.array(CardCodeSchema),
    status: GameStatusSchema,
    score: z.number().int(),
    moves: z.number().int().min(0),
    recycles: z.number().int().min(0),
    redealsLeft: z.number().int().min(0).nullable(),
    lastPass: z.enum(LAST_PASS_STATES).meta({
      description:
        'R16: available (may still be taken in place of a redeal), taken (one card per draw), or none',
    }),
    canUndo: z.boolean(),
    canAutoComplete: z.boolean(),
    elapsedMs: z.number().int().min(0),
  })
  .strict()
  .meta({ id: 'PlayerView' }) satisfies z.ZodType<PlayerView>;

void FOUNDATION_PILES;

/** Error codes of the HTTP API and WebSocket error frames. */
export const API_ERROR_CODES = [
  'bad-request',
  'not-found',
  'forbidden',
  'unauthorized',
  'unknown-token',
  'missing-scope',
  'conflict',
  'stale-version',
  'illegal-move',
  'rate-limited',
  'frame-too-large',
  'body-too-large',
  'bad-media-type',
  'not-subscribed',
  'solver-busy',
  'unavailable',
  'deal-embargoed',
  'overloaded',
  'commit-failed',
  'internal',
] as const;
/** One API error code. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** HTTP status of each API error code. */
export const API_ERROR_STATUS = {
  'bad-request': 400,
  'not-found': 404,
  forbidden: 403,
  unauthorized: 401,
  /** A bearer token was sent but names no player (never issued, rotated, or signed out everywhere). */
  'unknown-token': 401,
  /** A personal access token without the scope the operation or frame needs; the message names it. */
  'missing-scope': 403,
  conflict: 409,
  'stale-version': 409,
  'illegal-move': 422,
  'rate-limited': 429,
  'frame-too-large': 413,
  /** An HTTP request body over the server's limit (16 KiB); nothing was read or changed. */
  'body-too-large': 413,
  /** An HTTP request body that is not `application/json`; nothing was read or changed. */
  'bad-media-type': 415,
  'not-subscribed': 409,
  'solver-busy': 503,
  unavailable: 503,
  'deal-embargoed': 403,
  /** The server's commit queue is full: the action was refused before anything changed (REST: Retry-After). */
  overloaded: 503,
  /** The database refused or lost the commit: the action was not stored; the game is unchanged. */
  'commit-failed': 503,
  internal: 500,
} as const satisfies Record<ApiErrorCode, number>;

/** Which rule refused a move (the rules package's MoveError codes). */
export const MoveErrorCodeSchema = z.enum(
  Object.keys(MOVE_ERROR_CODES) as [keyof typeof MOVE_ERROR_CODES, ...(keyof typeof MOVE_ERROR_CODES)[]],
);

/** The body of every error response: `{"error":{"code","message"}}`, plus the current version on 409 and the rule reason on 422. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES),
      message: z.string(),
      /** Current game version (stale-version, illegal-move). */
      version: z.number().int().min(0).optional(),
      /** Which rule refused the move (illegal-move). */
      reason: MoveErrorCodeSchema.optional(),
    }),
  })
  .meta({ id: 'Error' });
/** An error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

// ---------- REST ----------

/**
 * POST /api/games body. `deal` (52 codes in deal order), `dealNumber` and `sameDealAs` (another game's id:
 * a new game of that game's deal, which stays hidden) are mutually exclusive; none of them = a random deal.
 */
export const CreateGameBodySchema = z
  .object({
    preset: PresetSchema.optional(),
    options: GameOptionsSchema.partial().optional(),
    dealNumber: z.number().int().min(1).max(MAX_DEAL_NUMBER).optional(),
    deal: z.string().max(400).optional(),
    sameDealAs: GameIdSchema.optional().meta({
      description: "another game's id: a new game of the same deal, without revealing it",
    }),
  })
  .strict()
  .refine((b) => [b.deal, b.dealNumber, b.sameDealAs].filter((x) => x !== undefined).length <= 1, {
    message: 'give at most one of deal, dealNumber and sameDealAs',
  });
/** POST /api/games body. */
export type CreateGameBody = z.infer<typeof CreateGameBodySchema>;

/** What a game is (GameResponse.kind). */
export const GameKindSchema = z.enum(['casual', 'daily-ranked', 'daily-practice', 'race']);
/** What a game is: `casual`, `daily-ranked`, `daily-practice` or `race`. */
export type GameKind = z.infer<typeof GameKindSchema>;

/** `{"id","version","view","preset","dealNumber","kind","daily","race"}`: a game as its player sees it. */
export const GameResponseSchema = z
  .object({
    id: GameIdSchema,
    version: z.number().int().min(0),
    view: PlayerViewSchema,
    preset: PresetSchema.nullable(),
    /**
     * Deal number when its creator chose one (public: anyone may deal it again); null for a random deal,
     * a daily or a race game, whose deal nobody may identify while it is hidden.
     */
    dealNumber: z.number().int().nullable(),
    /**
     * What the game is, so no client has to guess from its options: `casual` (POST /api/games),
     * `daily-ranked` (a player's one ranked attempt: undo and hints off), `daily-practice` (a daily's deal
     * played unranked) or `race` (a racer's game).
     */
    kind: GameKindSchema,
    /** The daily a `daily-ranked` or `daily-practice` game plays, else null. */
    daily: z.object({ date: DateSchema, preset: DailyPresetSchema }).nullable(),
    /** The race a `race` game belongs to, else null. */
    race: z.object({ code: RaceCodeSchema }).nullable(),
  })
  .meta({ id: 'Game' });
/** A game response. */
export type GameResponse = z.infer<typeof GameResponseSchema>;

/** :id path params. */
export const GameParamsSchema = z.object({ id: GameIdSchema });

/** POST /api/games/:id/moves body. */
export const MoveBodySchema = z.object({ move: MoveSchema, version: z.number().int().min(0) }).strict();
/** POST /api/games/:id/undo and /resign body: the version the client last saw (optional for undo/resign). */
export const VersionBodySchema = z.object({ version: z.number().int().min(0).optional() }).strict();

/** `{"version","view"}` after a move, undo or resignation. */
export const StateResponseSchema = z
  .object({ version: z.number().int().min(0), view: PlayerViewSchema })
  .meta({ id: 'State' });
/** A state response. */
export type StateResponse = z.infer<typeof StateResponseSchema>;

/** GET /api/games/:id/legal-moves response. */
export const LegalMovesResponseSchema = z.object({
  version: z.number().int().min(0),
  moves: z.array(MoveSchema),
});

/** GET /api/games/:id/deal response (only once the game has ended). */
export const DealResponseSchema = z.object({
  deal: z.string().meta({ description: '52 card codes in deal order, space-separated' }),
  dealNumber: z.number().int().nullable(),
});

/** GET /api/health response. */
export const HealthResponseSchema = z.object({ status: z.literal('ok') });

/**
 * What the server's background work is doing (GET /api/ready's `background`; never a readiness check): the
 * daily job's state and the background solver jobs running now.
 */
export const BackgroundStatusSchema = z.object({
  daily: z.object({
    /** Today's dailies are stored and served. */
    todayReady: z.boolean(),
    /** Archive dailies not yet stored, as the fill last counted them; null before the fill first ran. */
    archivePending: z.number().int().min(0).nullable(),
    /** Par refinements under way or waiting. */
    parPending: z.number().int().min(0),
    /** The background fill (the archive's missing days, then every par's refinement) is running. */
    backfilling: z.boolean(),
  }),
  /** Background solver jobs running now: what (`par 2026-12-01 classic-draw1`) and for how long (ms). */
  running: z.array(z.object({ job: z.string(), ms: z.number().int().min(0) })),
  /** Background solver jobs waiting for a thread. */
  queued: z.number().int().min(0),
});

/**
 * GET /api/ready response (200 when every check passes, else 503): the database answers, every migration
 * on disk is applied, the solver's worker pool has a live thread. `background` tells what the daily job is
 * doing; `redis` (several nodes only) says whether the bus to the other nodes is up. Both are for the
 * operator and never make the node unready.
 */
export const ReadyResponseSchema = z
  .object({
    status: z.enum(['ready', 'unready']),
    checks: z.object({ database: z.boolean(), migrations: z.boolean(), solver: z.boolean() }),
    background: BackgroundStatusSchema,
    redis: z.boolean().optional().meta({
      description:
        'with REDIS_URL only: whether Redis answers (false: moves go on, events between nodes are dropped, rate limits count per node)',
    }),
  })
  .meta({ id: 'Ready' });
/** GET /api/ready response. */
export type ReadyResponse = z.infer<typeof ReadyResponseSchema>;

// ---------- Solver ----------

/** Longest solve a caller may ask for, in ms (the server may cap it lower). */
export const MAX_SOLVE_TIME_MS = 60_000;
/**
 * Highest `maxNodes` of a POST /api/solve body: 60 000 000 positions, about 30 s of one core at ~2 M positions
 * a second (the daily par's budget).
 */
export const MAX_SOLVE_NODES = 60_000_000;

/** A solver verdict: a win was found, no win exists (proven), or the limits were hit first. */
export const VerdictSchema = z.enum(['won', 'impossible', 'unknown']);

/** POST /api/solve body: options as for a new game, a deal (or deal number), an optional time limit. */
export const SolveBodySchema = z
  .object({
    preset: PresetSchema.optional(),
    options: GameOptionsSchema.partial().optional(),
    deal: z.string().max(400).optional(),
    dealNumber: z.number().int().min(1).max(MAX_DEAL_NUMBER).optional(),
    timeLimitMs: z.number().int().min(1).max(MAX_SOLVE_TIME_MS).optional(),
    /**
     * Ask for a shortest line (A* counting every public move, draws, recycles and the last pass included):
     * the answer says whether it is proven (`optimal`) and gives a proven `lowerBound`. Default false.
     */
    minimal: z.boolean().optional(),
    /** Shorten the search's line with the post-pass (costs up to ~200 ms). Default false. */
    shorten: z.boolean().optional(),
    /**
     * Deterministic mode: limit the search by positions instead of time, so the same body gets the same
     * answer on any machine and under any load (no clock is read; `shorten` is then off). With `minimal`, the
     * proof gets `maxNodes` positions, the fallback search as many, each of three weighted passes a quarter.
     */
    maxNodes: z.number().int().min(1).max(MAX_SOLVE_NODES).optional(),
  })
  .strict()
  .refine((b) => (b.deal === undefined) !== (b.dealNumber === undefined), {
    message: 'give exactly one of deal or dealNumber',
  });
/** POST /api/solve body. */
export type SolveBody = z.infer<typeof SolveBodySchema>;

/** POST /api/solve response. */
export const SolveResponseSchema = z
  .object({
    verdict: VerdictSchema,
    /** With `won`: moves that replay from the deal to a win. */
    line: z.array(MoveSchema).optional(),
    /** Positions generated by the search. */
    nodes: z.number().int().min(0),
    /** Search time, ms. */
    ms: z.number().min(0),
    /** Only with `minimal`: true when `line` is proven to have the fewest public moves. */
    optimal: z.boolean().optional(),
    /** Only with `minimal`: a proven lower bound on the public moves of any winning line. */
    lowerBound: z.number().int().min(0).optional(),
  })
  .meta({ id: 'SolveResult' });
/** POST /api/solve response. */
export type SolveResponse = z.infer<typeof SolveResponseSchema>;

/** GET /api/games/:id/hint response: the next move of a winning line from the current position. */
export const HintResponseSchema = z
  .object({
    /** The game version the hint is for. */
    version: z.number().int().min(0),
    /** `won`: `move` starts a winning line; `impossible`: no win from here; `unknown`: not decided in time. */
    verdict: VerdictSchema,
    move: MoveSchema.optional(),
    /** Moves left in the winning line found (with `won`). */
    lineLength: z.number().int().min(0).optional(),
  })
  .meta({ id: 'Hint' });
/** A hint response. */
export type HintResponse = z.infer<typeof HintResponseSchema>;
