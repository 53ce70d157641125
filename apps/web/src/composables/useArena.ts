/**
 * One arena, live (docs/arenas.md): loaded over REST, then followed with `arena-subscribe` on the app's socket
 * (again on every reconnection); each `arena` frame replaces the state whole. When the caller is paired
 * (`me.pairedRace`, or a `paired` frame) it goes to the race room. Join, pause and their errors.
 */
import type { Arena } from '@klondike/protocol';
import { onBeforeUnmount, ref, shallowRef, type Ref } from 'vue';
import { useRouter } from 'vue-router';
import { serverText, tr } from '../i18n';
import { ApiError } from '../lib/api';
import { getArena, joinArena, pauseArena } from '../lib/arenaApi';
import { racePath } from '../lib/race';
import { useSocket } from './useSocket';

/** Races this tab has already been taken to (coming back to the arena never bounces into one again). */
const followed = new Set<string>();

export interface ArenaState {
  readonly arena: Readonly<Ref<Arena | null>>;
  readonly error: Readonly<Ref<string | null>>;
  readonly busy: Readonly<Ref<boolean>>;
  /**
   * The arena answered 404: missing, or invite-only and the caller not in it (the server answers both
   * alike). Joining with its invite code still works and shows it.
   */
  readonly hidden: Readonly<Ref<boolean>>;
  join(inviteCode?: string): Promise<void>;
  pause(): Promise<void>;
}

/** Follows arena `id`; `follow`: go to the caller's race when they are paired. */
export function useArena(id: string, follow = true): ArenaState {
  const router = useRouter();
  const socket = useSocket();
  const arena = shallowRef<Arena | null>(null);
  const error = ref<string | null>(null);
  const busy = ref(false);
  const hidden = ref(false);
  let gone = false;

  function apply(a: Arena): void {
    if (gone || a.id !== id) return;
    arena.value = a;
    hidden.value = false;
    const code = a.me?.pairedRace;
    if (follow && code && a.status !== 'finished') go(code);
  }

  function go(code: string): void {
    if (followed.has(code)) return;
    followed.add(code);
    void router.push(racePath(code));
  }

  function fail(e: unknown, key: string): void {
    error.value = e instanceof ApiError ? serverText(e.message, key) : tr(key);
  }

  const subscribe = (): void => {
    socket.send({ type: 'arena-subscribe', id });
  };
  const stopOpen = socket.onOpen(subscribe);
  const stopFrames = socket.onFrame((f) => {
    if (f.type === 'arena') apply(f.arena);
    else if (f.type === 'paired' && follow && arena.value?.me?.joined) go(f.code);
  });
  subscribe();
  getArena(id).then(apply, (e: unknown) => {
    if (e instanceof ApiError && e.code === 'not-found') hidden.value = true;
    else fail(e, 'arena.loadFailed');
  });

  async function act(fn: () => Promise<Arena>, key: string): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      apply(await fn());
    } catch (e) {
      fail(e, key);
    } finally {
      busy.value = false;
    }
  }

  onBeforeUnmount(() => {
    gone = true;
    socket.send({ type: 'arena-unsubscribe', id });
    stopOpen();
    stopFrames();
  });

  return {
    arena,
    error,
    busy,
    hidden,
    join: (code) => act(() => joinArena(id, code), 'arena.joinFailed'),
    pause: () => act(() => pauseArena(id), 'arena.pauseFailed'),
  };
}
