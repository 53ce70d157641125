/**
 * Solver hints for casual games (view.options.hints): the Hint button's request, the highlight it shows on
 * the table for a while, the notice when there is no win (or no answer in time), and the optional "still
 * winnable?" badge, which asks again (debounced) after every new state version while the tab is visible.
 * Both share one client-side cache per game version, so the badge's answer makes the button instant. Nothing
 * is ever fetched for a game with hints off, and an answer for a version that is no longer current is dropped.
 */
import type { HintResponse } from '@klondike/protocol';
import type { PlayerView } from '@klondike/rules';
import { computed, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { serverText, tr } from '../i18n';
import { ApiError, getHint, getWinnable } from '../lib/api';
import { describeHint, hintHighlight, type HintHighlight, type Verdict } from '../lib/hint';
import { useNotify } from './useNotify';

/** The parts of the game (useGame) hints read. */
export interface HintGame {
  readonly gameId: Readonly<Ref<string | null>>;
  /** Confirmed version (-1 before a game is shown). */
  readonly version: Readonly<Ref<number>>;
  /** The view on screen (pending moves applied). */
  readonly view: Readonly<Ref<PlayerView | null>>;
}

export interface HintOptions {
  /** Fetches a hint (default GET /api/games/:id/hint). */
  readonly fetchHint?: (gameId: string) => Promise<HintResponse>;
  /** Fetches the badge's answer (default GET /api/games/:id/winnable: the hint's answer, its own allowance). */
  readonly fetchWinnable?: (gameId: string) => Promise<HintResponse>;
  /** Quiet time after a new version before the badge asks (default 800 ms). */
  readonly debounceMs?: number;
  /** How long a hinted move stays highlighted (default 2500 ms). */
  readonly highlightMs?: number;
  /** Where the badge setting is remembered (default localStorage; null = not remembered). */
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** A banner about the position: no win from here, or the solver ran out of time. */
export interface HintNotice {
  readonly kind: 'impossible' | 'unknown';
  /** Version it is about (it goes away with the next one). */
  readonly version: number;
}

/** What the badge shows: a verdict, `checking` (spinner) or `error` (could not ask). */
export type BadgeState = Verdict | 'checking' | 'error';

/** localStorage key of the badge setting. */
export const WINNABLE_KEY = 'klondike.winnableBadge';

/** Hints remembered on the client. */
const CACHE_SIZE = 32;
/** How long the button waits for its game to catch up with a newer version the server answered for. */
const CATCH_UP_MS = 1500;

function defaultStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Friendly text of a hint request's failure. */
export function hintErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return tr('hint.failed');
  switch (e.code) {
    case 'forbidden':
      return tr('hint.off');
    case 'rate-limited':
      return tr('hint.tooMany');
    case 'solver-busy':
      return tr('hint.busy');
    case 'network':
      return tr('hint.network');
    case 'not-found':
      return tr('game.notFound');
    default:
      return serverText(e.message, 'hint.failed');
  }
}

export function useHint(game: HintGame, options: HintOptions = {}) {
  const { toast, announce } = useNotify();
  const fetchHint = options.fetchHint ?? getHint;
  const fetchWinnable = options.fetchWinnable ?? getWinnable;
  const debounceMs = options.debounceMs ?? 800;
  const highlightMs = options.highlightMs ?? 2500;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;

  /** Hints on and the game in play: the button shows, the badge may ask. */
  const available = computed(() => {
    const v = game.view.value;
    return !!v && v.options.hints && v.status === 'playing' && game.gameId.value !== null;
  });

  // ---------- shared cache ----------

  const cache = new Map<string, Promise<HintResponse>>();
  const keyOf = (id: string, version: number) => `${id}@${version}`;

  function remember(key: string, p: Promise<HintResponse>): void {
    cache.delete(key);
    cache.set(key, p);
    while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }

  /**
   * The hint for game `id` at `version`, asked once (concurrent callers share the request). The badge asks
   * through its own route (`by: 'badge'`: the same answer, an allowance of its own), the button through
   * the hint route; either answer serves both.
   */
  function ask(id: string, version: number, by: 'button' | 'badge' = 'button'): Promise<HintResponse> {
    const key = keyOf(id, version);
    const hit = cache.get(key);
    if (hit) return hit;
    const p = by === 'badge' ? fetchWinnable(id) : fetchHint(id);
    remember(key, p);
    p.then(
      (h) => {
        // Not decided: a later ask may search again. Answered for another version: file it under that one.
        if (h.verdict === 'unknown' || h.version !== version) cache.delete(key);
        if (h.version !== version && h.verdict !== 'unknown') remember(keyOf(id, h.version), p);
        if (h.version === version) record(id, h);
      },
      () => cache.delete(key),
    );
    return p;
  }

  // ---------- the button ----------

  const pending = ref(false);
  const highlight = shallowRef<HintHighlight | null>(null);
  const notice = shallowRef<HintNotice | null>(null);
  let highlightTimer: ReturnType<typeof setTimeout> | undefined;
  let requestSeq = 0;

  function clearHighlight(): void {
    clearTimeout(highlightTimer);
    highlight.value = null;
  }

  function dismissNotice(): void {
    notice.value = null;
  }

  /** Waits until the game shows `version` (or moves past it, or `ms` pass); true when it shows it. */
  function catchUp(version: number, ms: number): Promise<boolean> {
    if (game.version.value === version) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(game.version.value === version);
      }, ms);
      const stop = watch(game.version, (v) => {
        if (v < version) return;
        clearTimeout(timer);
        stop();
        resolve(v === version);
      });
    });
  }

  function show(h: HintResponse, view: PlayerView): void {
    if (h.verdict === 'won' && h.move) {
      const hl = hintHighlight(h.move, view);
      if (!hl) {
        announce(tr('hint.changed'));
        return;
      }
      // Re-set on the next frame so a repeated hint restarts the pulse.
      clearHighlight();
      const set = () => {
        if (game.view.value !== view) return; // the position changed within the frame
        highlight.value = hl;
        highlightTimer = setTimeout(() => (highlight.value = null), highlightMs);
      };
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(set);
      else set();
      announce(tr('hint.said', { hint: describeHint(h.move, view) }));
    } else if (h.verdict === 'won') {
      announce(tr('hint.alreadyWon'));
    } else if (h.verdict === 'impossible') {
      notice.value = { kind: 'impossible', version: h.version };
      announce(tr('hint.noWinHere'));
    } else {
      notice.value = { kind: 'unknown', version: h.version };
      announce(tr('hint.undecided'));
    }
  }

  /** Asks for a hint for the position on screen (the Hint button and the H key). */
  async function request(): Promise<void> {
    const id = game.gameId.value;
    if (!id || !available.value) {
      if (id && game.view.value && !game.view.value.options.hints) announce(tr('hint.off'));
      return;
    }
    if (pending.value) return;
    const seq = ++requestSeq;
    const version = game.version.value;
    pending.value = true;
    clearHighlight();
    notice.value = null;
    try {
      const h = await ask(id, version);
      if (seq !== requestSeq || game.gameId.value !== id) return;
      // The server may be a step ahead of us (a state frame on its way): give the game a moment to catch up.
      if (h.version !== game.version.value && h.version > game.version.value)
        await catchUp(h.version, CATCH_UP_MS);
      if (seq !== requestSeq || game.gameId.value !== id) return;
      const view = game.view.value;
      if (h.version !== game.version.value || !view) {
        announce(tr('hint.changed'));
        return;
      }
      show(h, view);
    } catch (e) {
      if (seq !== requestSeq || game.gameId.value !== id) return;
      const text = hintErrorText(e);
      toast(text);
      announce(text);
    } finally {
      if (seq === requestSeq) pending.value = false;
    }
  }

  // Any change of position ends a highlight and a notice (and a game change cancels a request).
  watch(game.view, clearHighlight);
  watch(game.version, (v) => {
    if (notice.value && notice.value.version !== v) notice.value = null;
  });
  watch(game.gameId, () => {
    requestSeq++;
    pending.value = false;
    notice.value = null;
    clearHighlight();
  });

  // ---------- the winnable badge ----------

  function stored(): boolean {
    try {
      return storage?.getItem(WINNABLE_KEY) === '1';
    } catch {
      return false;
    }
  }
  const badgeEnabled = ref(stored());
  watch(badgeEnabled, (on) => {
    try {
      storage?.setItem(WINNABLE_KEY, on ? '1' : '0');
    } catch {
      /* private mode */
    }
  });

  const visible = ref(typeof document === 'undefined' || document.visibilityState !== 'hidden');
  const onVisibility = () => {
    visible.value = document.visibilityState !== 'hidden';
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);

  /** Latest verdict per game version (what the badge shows for that version). */
  const known = shallowRef<{ readonly key: string; readonly state: BadgeState } | null>(null);
  let badgeTimer: ReturnType<typeof setTimeout> | undefined;

  function currentKey(): string | null {
    const id = game.gameId.value;
    return id ? keyOf(id, game.version.value) : null;
  }

  function record(id: string, h: HintResponse): void {
    const key = keyOf(id, h.version);
    if (key === currentKey()) known.value = { key, state: h.verdict };
  }

  /** What the badge shows; null when it is hidden (setting off, hints off, game not in play). */
  const badge = computed<BadgeState | null>(() => {
    if (!badgeEnabled.value || !available.value) return null;
    const k = known.value;
    return k && k.key === currentKey() ? k.state : 'checking';
  });

  function check(): void {
    const id = game.gameId.value;
    if (!id || !badgeEnabled.value || !available.value || !visible.value) return;
    const version = game.version.value;
    const key = keyOf(id, version);
    ask(id, version, 'badge').then(
      (h) => {
        if (h.version === version && key === currentKey()) known.value = { key, state: h.verdict };
      },
      () => {
        if (key === currentKey()) known.value = { key, state: 'error' };
      },
    );
  }

  function schedule(): void {
    clearTimeout(badgeTimer);
    if (!badgeEnabled.value || !available.value || !visible.value) return;
    const k = known.value;
    if (k && k.key === currentKey()) return; // already answered for this version
    badgeTimer = setTimeout(check, debounceMs);
  }

  watch([badgeEnabled, available, game.gameId, game.version, visible], schedule, { immediate: true });

  onScopeDispose(() => {
    clearTimeout(highlightTimer);
    clearTimeout(badgeTimer);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
  });

  return {
    available,
    pending,
    highlight,
    notice,
    badgeEnabled,
    badge,
    request,
    dismissNotice,
    clearHighlight,
  };
}

export type Hint = ReturnType<typeof useHint>;
