/**
 * Imported games (POST /api/games/import; docs/api.md "Imported games"): a casual game played offline in
 * the browser with the rules package, uploaded by its player. Every action is replayed here with the rules
 * package before anything is written; the game and its whole log are then stored in one transaction as a
 * casual game of that player, marked imported by `Game.importKey` (the client's id of the offline game,
 * unique per player: a second upload stores nothing and answers the first game). The server saw no clock:
 * the game's times are the upload's, and its score is the rules' score with no time elapsed.
 */
import type { ImportGameBody, ImportGameResponse } from '@klondike/protocol';
import {
  type Deal,
  type GameState,
  applyAction,
  dealFromNumber,
  formatDeal,
  gameStatus,
  newGame,
  playerView,
  resolveOptions,
} from '@klondike/rules';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { gameDay } from '../../infra/db/game-log.js';
import { optionsToStore } from '../../infra/db/game-options.js';
import { ApiError } from '../../infra/errors.js';
import { newGameId } from '../rooms/game-rooms.js';

/** What the import needs of the server: its database, clock and deal embargo. */
export interface ImportDeps {
  readonly prisma: PrismaClient;
  readonly now: () => number;
  /** Refuses a deal that is under embargo by throwing (`deal-embargoed`). */
  readonly embargo: (deal: Deal) => Promise<void>;
}

const ANSWER = { id: true, version: true, status: true, score: true, moves: true } as const;

/** The game `owner` already uploaded as `clientId`, or null. */
async function existing(
  prisma: PrismaClient,
  owner: string,
  clientId: string,
): Promise<ImportGameResponse | null> {
  const g = await prisma.game.findUnique({
    where: { playerId_importKey: { playerId: owner, importKey: clientId } },
    select: ANSWER,
  });
  return g === null ? null : { ...g, created: false };
}

/**
 * Replays `body`'s actions from its deal with the rules package and stores the game for `owner`.
 * Errors (nothing stored): `bad-request` for an unreadable deal number; `deal-embargoed`; `illegal-move`
 * naming the first refused action's index (`version` = that index, `reason` = the rule).
 */
export async function importGame(
  deps: ImportDeps,
  owner: string,
  body: ImportGameBody,
): Promise<ImportGameResponse> {
  const before = await existing(deps.prisma, owner, body.clientId);
  if (before !== null) return before;
  const dealt = dealFromNumber(body.dealNumber);
  if (!dealt.ok) throw new ApiError('bad-request', dealt.error.message);
  await deps.embargo(dealt.value);
  const options = resolveOptions(body.preset, {});
  let state: GameState = newGame(dealt.value, options);
  for (const [i, action] of body.actions.entries()) {
    const r = applyAction(state, action);
    if (!r.ok)
      throw new ApiError('illegal-move', `action ${i}: ${r.error.message}`, {
        version: i,
        reason: r.error.code,
      });
    state = r.value;
  }
  const status = gameStatus(state);
  const view = playerView(state, 0, status);
  const now = new Date(deps.now());
  const id = newGameId();
  const stored = optionsToStore({ preset: body.preset, ranked: false, dailyPreset: null }, options);
  const version = body.actions.length;
  try {
    await deps.prisma.$transaction(async (tx) => {
      await tx.game.create({
        data: {
          id,
          preset: body.preset,
          options: stored === null ? Prisma.DbNull : { ...stored },
          deal: formatDeal(dealt.value),
          dealNumber: BigInt(body.dealNumber),
          version,
          status,
          score: view.score,
          moves: view.moves,
          createdAt: now,
          updatedAt: now,
          startedAt: version > 0 ? now : null,
          endedAt: status === 'playing' ? null : now,
          playerId: owner,
          importKey: body.clientId,
        },
      });
      if (version > 0)
        await tx.move.createMany({
          data: body.actions.map((a, i) => ({
            gameId: id,
            seq: i + 1,
            gameDay: gameDay(now),
            kind: a.type,
            move: a.type === 'move' ? { ...a.move } : Prisma.DbNull,
            createdAt: now,
          })),
        });
    });
  } catch (e) {
    // A concurrent upload of the same game won the unique key: answer its game.
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
      const other = await existing(deps.prisma, owner, body.clientId);
      if (other !== null) return other;
    }
    throw e;
  }
  return { id, version, status, score: view.score, moves: view.moves, created: true };
}
