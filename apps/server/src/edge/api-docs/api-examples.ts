/**
 * Request and response examples of the main operations (a game, a move, a daily, a race), by operationId,
 * put into the OpenAPI document by openapi-document.ts. The answers are ones the server gave; Redocly's lint
 * (`pnpm lint`) checks each against its schema
 * (`no-invalid-media-type-examples`).
 */

/** Named examples of one media type (`{name: {summary, value}}`, OpenAPI's Example Object map). */
export type NamedExamples = Record<string, { summary?: string; value: unknown }>;

/** The examples of one operation: its JSON request body and its JSON answers by status. */
export interface OperationExamples {
  readonly request?: NamedExamples;
  readonly responses?: Readonly<Record<string, NamedExamples>>;
}

const OPTIONS = {
  draw: 1,
  redeals: null,
  tableauMoves: 'anyRun',
  foundationToTableau: true,
  scoring: 'standard',
  timed: true,
  undo: true,
  hints: true,
  finalSinglePass: false,
};

/** Deal 617 of classic draw-1 as its player sees it, before any move. */
const VIEW_617 = {
  options: OPTIONS,
  tableau: [
    { faceDown: 0, faceUp: ['6D'] },
    { faceDown: 1, faceUp: ['9D'] },
    { faceDown: 2, faceUp: ['TH'] },
    { faceDown: 3, faceUp: ['KC'] },
    { faceDown: 4, faceUp: ['3D'] },
    { faceDown: 5, faceUp: ['2C'] },
    { faceDown: 6, faceUp: ['9S'] },
  ],
  foundations: { fC: null, fD: null, fH: null, fS: null },
  stock: { count: 24 },
  waste: [],
  status: 'playing',
  score: 0,
  moves: 0,
  recycles: 0,
  redealsLeft: null,
  lastPass: 'none',
  canUndo: false,
  canAutoComplete: false,
  elapsedMs: 0,
};

const GAME_ID = 'BV8i-CZCd5A4HeY8';
const PLAYER_ID = 'o8FILVRBNlR134-Q';

/** Examples by operationId. */
export const API_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  createGame: {
    request: {
      dealNumber: {
        summary: 'Classic draw-1, deal number 617',
        value: { preset: 'classic-draw1', dealNumber: 617 },
      },
      random: { summary: 'Draw-3 on a random deal', value: { preset: 'classic-draw3' } },
    },
    responses: {
      '201': {
        game: {
          summary: 'A new game at version 0',
          value: {
            id: GAME_ID,
            version: 0,
            view: VIEW_617,
            preset: 'classic-draw1',
            dealNumber: 617,
            kind: 'casual',
            daily: null,
            race: null,
          },
        },
      },
    },
  },
  playMove: {
    request: {
      draw: { summary: 'Draw from the stock at version 0', value: { move: { type: 'draw' }, version: 0 } },
      tableau: {
        summary: 'Move one card from t5 to t7',
        value: { move: { type: 'move', from: 't5', to: 't7', count: 1 }, version: 1 },
      },
    },
    responses: {
      '200': {
        drawn: {
          summary: 'The state after the draw',
          value: {
            version: 1,
            view: { ...VIEW_617, stock: { count: 23 }, waste: ['KH'], moves: 1, canUndo: true },
          },
        },
      },
      '409': {
        stale: {
          summary: 'Sent at version 0 when the game is at 1',
          value: { error: { code: 'stale-version', message: 'the game is at version 1, not 0', version: 1 } },
        },
      },
      '422': {
        illegal: {
          summary: 'A card on one of the same colour',
          value: {
            error: {
              code: 'illegal-move',
              message: 'A tableau card takes one rank lower of the opposite colour (R4).',
              version: 1,
              reason: 'tableau-build',
            },
          },
        },
      },
    },
  },
  getDailyChallenges: {
    responses: {
      '200': {
        today: {
          summary: "Today's two dailies, no result of the caller's yet, and tomorrow's commitments",
          value: {
            date: '2026-12-01',
            now: '2026-12-01T19:25:18.477Z',
            nextAt: '2026-12-02T00:00:00.000Z',
            challenges: [
              {
                date: '2026-12-01',
                preset: 'classic-draw1',
                players: 0,
                closesAt: '2026-12-02T00:00:00.000Z',
                closed: false,
                par: 92,
                parProven: true,
                you: null,
                commitment: 'd15b97b10e14b8861eaef70a7eb0c7741daef8e83bd8f7e9b117a8a34b6cc1bb',
                difficulty: null,
                yourRating: null,
              },
              {
                date: '2026-12-01',
                preset: 'classic-draw3',
                players: 0,
                closesAt: '2026-12-02T00:00:00.000Z',
                closed: false,
                par: 104,
                parProven: false,
                you: null,
                commitment: '7d860e0693ddd6ba617a8ddee809bd80804097fcf797ff3856f3a9ced23caace',
                difficulty: null,
                yourRating: null,
              },
            ],
            tomorrow: [
              {
                date: '2026-12-02',
                preset: 'classic-draw1',
                opensAt: '2026-12-02T00:00:00.000Z',
                commitment: '60d3a99d03d451ccf71d719eb9bec79a28ab8b8d37591b5abac19727193eb1ed',
              },
              {
                date: '2026-12-02',
                preset: 'classic-draw3',
                opensAt: '2026-12-02T00:00:00.000Z',
                commitment: 'ca0a4ac545d9517828ebf4c7de3fb3fda782444d1bdda9b515c7f200e16bb000',
              },
            ],
          },
        },
      },
    },
  },
  createRace: {
    request: {
      random: { summary: 'Two racers, a random deal', value: { deal: 'random', maxPlayers: 2 } },
      certified: {
        summary: 'A deal the solver proved winnable, draw-3',
        value: { preset: 'classic-draw3', deal: 'certified' },
      },
    },
    responses: {
      '201': {
        lobby: {
          summary: 'The new room, its host seated',
          value: {
            code: '3DXMRWP2LH',
            url: '/race/3DXMRWP2LH',
            status: 'lobby',
            preset: 'classic-draw1',
            options: { ...OPTIONS, hints: false },
            knownDeal: false,
            rated: false,
            dealCommitment: '9f2c4e1a7b3d5f60812a4c6e8b0d2f4163a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3',
            maxPlayers: 2,
            timeLimitMs: null,
            startsAt: null,
            countdownMs: 3000,
            endedAt: null,
            serverNow: '2026-12-01T19:24:54.167Z',
            racers: [
              {
                playerId: PLAYER_ID,
                name: 'Ada',
                bot: false,
                host: true,
                ready: false,
                presence: 'here',
                progress: null,
                placement: null,
                berserk: false,
              },
            ],
            spectators: 0,
            you: PLAYER_ID,
            yourGameId: null,
            rematchCode: null,
            arenaId: null,
          },
        },
      },
    },
  },
};
