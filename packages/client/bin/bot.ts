#!/usr/bin/env node
/**
 * An example bot built on @klondike/client: it plays casual games over the WebSocket with a simple strategy
 * of its own, reading only what any player sees (the view: face-up cards, counts of hidden ones). It never
 * asks the server for hints, the solver or the legal moves: every decision is made here, with legality taken
 * from the rules package's view functions (`@klondike/rules`), which makes it a starting point for your own.
 *
 *   pnpm bot -- --server http://localhost:3000 --games 20 [--preset classic-draw1] [--name MyBot]
 *
 * `--name` first creates a bot account (POST /api/players {"name","bot":true}) and plays as it. The last
 * line printed is `won W of N`.
 *
 * The strategy, in order of preference (the first that applies is played):
 *   1. a card to its foundation (tableau tops first, then the waste);
 *   2. a run that uncovers a face-down card, onto another pile (the more face-down cards, the better);
 *   3. the waste's top card onto the tableau;
 *   4. draw from the stock, or recycle the waste when the stock is empty and the rules allow;
 *   5. resign once two passes through the stock in a row brought nothing new.
 */
import {
  TABLEAU_PILES,
  type TableauPileId,
  foundationMove,
  isLegalViewMove,
  stockMove,
} from '@klondike/rules';
import WebSocket from 'ws';
import {
  type CreateGameBody,
  type GameHandle,
  KlondikeClient,
  KlondikeSocket,
  type Move,
  type PlayerView,
  type WebSocketClass,
  isKlondikeError,
} from '../src/index.js';

// ---------- command line ----------

interface Args {
  server: string;
  games: number;
  preset: string;
  name: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { server: 'http://localhost:3000', games: 1, preset: 'classic-draw1', name: undefined };
  const rest = argv.filter((a) => a !== '--'); // pnpm passes the separator through
  for (let i = 0; i < rest.length; i += 2) {
    const [key, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--server') args.server = value;
    else if (key === '--games') args.games = Number(value);
    else if (key === '--preset') args.preset = value;
    else if (key === '--name') args.name = value;
    else throw new Error(`unknown option ${key} (use --server URL --games N [--preset P] [--name NAME])`);
  }
  if (!Number.isInteger(args.games) || args.games < 1) throw new Error('--games must be a whole number ≥ 1');
  return args;
}

// ---------- choosing a move ----------

/**
 * Every move the strategy would make now, best first (the game may still refuse one: then the next is tried).
 * Legality comes from the rules package's view functions, the same the web table uses, so the bot never
 * carries rules of its own.
 */
function candidates(view: PlayerView): { move: Move; progress: boolean }[] {
  const out: { move: Move; progress: boolean }[] = [];
  const legal = (move: Move): boolean => isLegalViewMove(view, move);

  // 1. Foundations: tableau tops, then the waste.
  for (const from of [...TABLEAU_PILES, 'waste'] as const) {
    const move = foundationMove(view, from);
    if (move) out.push({ move, progress: true });
  }

  // 2. Uncover face-down cards: move a pile's whole face-up run elsewhere (most face-down cards first).
  const byHidden = view.tableau
    .map((pile, i) => ({ pile, from: TABLEAU_PILES[i] as TableauPileId }))
    .sort((a, b) => b.pile.faceDown - a.pile.faceDown);
  for (const { pile, from } of byHidden) {
    if (pile.faceUp.length === 0 || pile.faceDown === 0) continue;
    for (const to of TABLEAU_PILES) {
      const move: Move = { type: 'move', from, to, count: pile.faceUp.length };
      if (legal(move)) out.push({ move, progress: true });
    }
  }

  // 3. The waste's top card onto the tableau.
  for (const to of TABLEAU_PILES) {
    const move: Move = { type: 'move', from: 'waste', to, count: 1 };
    if (legal(move)) out.push({ move, progress: true });
  }

  // 4. Turn cards: draw, or recycle the waste into the stock when that is allowed.
  const turn = stockMove(view);
  if (turn) out.push({ move: turn, progress: false });
  return out;
}

// ---------- playing ----------

/**
 * Sends a move; waits a second and retries while the server asks to (`rate-limited`: too many frames;
 * `unavailable`: its database is away for a moment). Retrying is safe: the move is sent at the same version,
 * so the server applies it at most once.
 */
async function play(game: GameHandle, move: Move): Promise<void> {
  for (;;) {
    try {
      await game.move(move);
      return;
    } catch (e) {
      if (!isKlondikeError(e, 'rate-limited') && !isKlondikeError(e, 'unavailable')) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Plays one game to its end (won, blocked, or resigned when stuck). Returns whether it was won. */
async function playGame(game: GameHandle): Promise<boolean> {
  let barrenRecycles = 0; // recycles since the last move that changed the layout
  while (game.view.status === 'playing') {
    const refused = new Set<string>();
    let played = false;
    for (const { move, progress } of candidates(game.view)) {
      const key = JSON.stringify(move);
      if (refused.has(key)) continue;
      try {
        await play(game, move);
      } catch (e) {
        // A rule this bot does not model (an option of the preset) refused it: try the next candidate.
        if (isKlondikeError(e, 'illegal-move')) {
          refused.add(key);
          continue;
        }
        throw e;
      }
      if (progress) barrenRecycles = 0;
      else if (move.type === 'recycle') barrenRecycles++;
      played = true;
      break;
    }
    if (!played || barrenRecycles >= 2) {
      if (game.view.status === 'playing') await game.resign();
      break;
    }
  }
  return game.view.status === 'won';
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rest = new KlondikeClient({ baseUrl: args.server });
  let token: string | undefined;
  if (args.name !== undefined) {
    const bot = await rest.createPlayer(args.name, { bot: true });
    token = bot.token;
    rest.setToken(token);
    console.log(`playing as bot ${bot.name} (${bot.id})`);
  }
  // Node 22+ and browsers have a global WebSocket; Node 20 needs the `ws` package's.
  const WebSocketImpl = (globalThis as { WebSocket?: WebSocketClass }).WebSocket ?? WebSocket;
  const socket = await KlondikeSocket.connect({
    url: rest.socketUrl(),
    WebSocket: WebSocketImpl,
    ...(token !== undefined ? { token } : {}),
  });
  let won = 0;
  try {
    for (let n = 1; n <= args.games; n++) {
      const created = await rest.createGame({ preset: args.preset as CreateGameBody['preset'] });
      const game = await socket.subscribe(created.id);
      const result = await playGame(game);
      if (result) won++;
      console.log(
        `game ${n}/${args.games} ${created.id}: ${game.view.status} after ${game.view.moves} moves`,
      );
      game.unsubscribe();
    }
  } finally {
    socket.close();
  }
  console.log(`won ${won} of ${args.games}`);
}

main().catch((e: unknown) => {
  console.error(isKlondikeError(e) ? `error ${e.code}: ${e.message}` : e);
  process.exit(1);
});
