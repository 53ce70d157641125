/**
 * A casual game dealt and played entirely in the browser with @klondike/rules — the offline table (no
 * network: the server cannot deal, check or keep it). It is the card table's `TableSource`; every game is
 * kept in this browser (localStorage `klondike.offlineGames`, newest first, at most 50) as unverified: its
 * deal number, preset, actions (the public notation) and result, so it can be replayed or uploaded to the
 * server as an imported game (POST /api/games/import; `markUploaded` notes the server's game id).
 */
import {
  MAX_DEAL_NUMBER,
  MIN_DEAL_NUMBER,
  applyAction,
  dealFromNumber,
  gameStatus,
  isLegalViewMove,
  newGame,
  playerView,
  resolveOptions,
  type GameAction,
  type GameState,
  type Move,
  type PlayerView,
  type PresetName,
} from '@klondike/rules';
import { computed, ref, shallowRef } from 'vue';
import { describeMove } from '../lib/format';
import { tr } from '../i18n';
import type { Outcome, TableSource } from './useGame';
import { useNotify } from './useNotify';

/** One game played offline, as this browser keeps it. */
export interface OfflineGame {
  readonly id: string;
  readonly preset: PresetName;
  readonly dealNumber: number;
  readonly actions: readonly GameAction[];
  readonly status: PlayerView['status'];
  readonly moves: number;
  readonly score: number;
  /** ISO times. */
  readonly startedAt: string;
  readonly updatedAt: string;
  /** Always false: no server saw it played (an upload replays it, but the game stays unverified). */
  readonly verified: false;
  /** Set once uploaded: the server's id of the imported game (its replay, docs/api.md "Imported games"). */
  readonly uploaded?: { readonly gameId: string };
}

const KEY = 'klondike.offlineGames';
const KEEP = 50;

/** The games kept in this browser, newest first. */
export function offlineGames(): OfflineGame[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? (list as OfflineGame[]) : [];
  } catch {
    return [];
  }
}

function keep(game: OfflineGame): void {
  try {
    const rest = offlineGames().filter((g) => g.id !== game.id);
    localStorage.setItem(KEY, JSON.stringify([game, ...rest].slice(0, KEEP)));
  } catch {
    /* private mode or full: the game is played but not kept */
  }
}

/**
 * Notes that offline game `id` was uploaded as the server's game `gameId` (its place in the list is kept).
 * Returns the updated game, or null when this browser no longer keeps it.
 */
export function markUploaded(id: string, gameId: string): OfflineGame | null {
  const list = offlineGames();
  const game = list.find((g) => g.id === id);
  if (!game) return null;
  const updated: OfflineGame = { ...game, uploaded: { gameId } };
  try {
    localStorage.setItem(KEY, JSON.stringify(list.map((g) => (g.id === id ? updated : g))));
  } catch {
    /* private mode or full: the server holds the game all the same */
  }
  return updated;
}

/** A random deal number (the browser's crypto; any number of the public range deals a fair game). */
export function randomDealNumber(): number {
  const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
  return MIN_DEAL_NUMBER + (n % (MAX_DEAL_NUMBER - MIN_DEAL_NUMBER));
}

/** The offline table's game: `deal` starts one, `move`/`undo` play it, every change is kept at once. */
export function useLocalGame() {
  const { announce } = useNotify();
  const state = shallowRef<GameState | null>(null);
  const record = shallowRef<OfflineGame | null>(null);
  const version = ref(0);
  const dealSeq = ref(0);
  let started = 0;
  const view = computed<PlayerView | null>(() =>
    state.value ? playerView(state.value, Date.now() - started) : null,
  );

  function save(s: GameState, actions: readonly GameAction[]): void {
    const r = record.value;
    if (!r) return;
    const v = playerView(s, Date.now() - started, gameStatus(s));
    record.value = {
      ...r,
      actions,
      status: v.status,
      moves: v.moves,
      score: v.score,
      updatedAt: new Date().toISOString(),
    };
    keep(record.value);
  }

  /** Deals `dealNumber` (random when absent) under `preset` and keeps it as a new offline game. */
  function deal(preset: PresetName, dealNumber = randomDealNumber()): boolean {
    const d = dealFromNumber(dealNumber);
    if (!d.ok) return false;
    state.value = newGame(d.value, resolveOptions(preset, {}));
    started = Date.now();
    const now = new Date().toISOString();
    record.value = {
      id: `offline-${started.toString(36)}`,
      preset,
      dealNumber,
      actions: [],
      status: 'playing',
      moves: 0,
      score: 0,
      startedAt: now,
      updatedAt: now,
      verified: false,
    };
    keep(record.value);
    version.value++;
    dealSeq.value++;
    return true;
  }

  function act(action: GameAction): boolean {
    const s = state.value;
    const r = record.value;
    if (!s || !r) return false;
    const next = applyAction(s, action);
    if (!next.ok) return false;
    const before = view.value;
    state.value = next.value;
    version.value++;
    save(next.value, [...r.actions, action]);
    const after = view.value;
    if (after && action.type === 'move') announce(describeMove(action.move, before, after));
    else if (action.type === 'undo') announce(tr('move.undone'));
    if (after?.status === 'won')
      setTimeout(
        () => announce(tr('move.won', { score: after.score, moves: tr('common.moves', {}, after.moves) })),
        400,
      );
    return true;
  }

  /** Plays `m` (the table's `move`): `illegal` when the rules refuse it. */
  function move(m: Move): Outcome {
    const v = view.value;
    if (!v) return 'no-game';
    if (!isLegalViewMove(v, m)) return 'illegal';
    return act({ type: 'move', move: m }) ? 'sent' : 'illegal';
  }

  /** Takes the last move back (R14), where the preset allows it. */
  function undo(): Outcome {
    return act({ type: 'undo' }) ? 'sent' : 'illegal';
  }

  const source: TableSource = { view, version, busy: computed(() => false), dealSeq, move };
  return { source, view, record, deal, move, undo };
}
