/**
 * The signed-in player's personal access tokens (the tokens page): the list, loaded while signed in; `create`
 * makes one and holds its token in `created` until `dismiss` (it is shown once, never again); `revoke`
 * deletes one. `error` is the last refusal in words.
 */
import type { Scope } from '@klondike/protocol';
import { ref, shallowRef } from 'vue';
import { tr } from '../i18n';
import { ApiError } from '../lib/errors';
import {
  createAccessToken,
  listAccessTokens,
  revokeAccessToken,
  type CreatedAccessToken,
} from '../lib/tokensApi';
import { useLoad } from './useDaily';
import { usePlayer } from './usePlayer';

/** A refusal of the tokens' routes in words. */
function tokenErrorText(e: unknown): string {
  if (e instanceof ApiError && e.code === 'conflict') return tr('tokens.tooMany');
  if (e instanceof ApiError && e.code === 'bad-request') return tr('tokens.badRequest');
  return tr('tokens.failed');
}

/** The tokens page's state. */
export function useAccessTokens() {
  const player = usePlayer();
  const list = useLoad(
    () => (player.signedIn.value ? listAccessTokens() : Promise.resolve([])),
    player.token,
  );
  const busy = ref(false);
  const error = ref<string | null>(null);
  const created = shallowRef<CreatedAccessToken | null>(null);

  /** Makes a token named `name` with `scopes`, expiring after `days` days (null: never). */
  async function create(name: string, scopes: Scope[], days: number | null): Promise<boolean> {
    if (busy.value) return false;
    busy.value = true;
    error.value = null;
    try {
      const expiresAt = days === null ? undefined : new Date(Date.now() + days * 86_400_000).toISOString();
      created.value = await createAccessToken({ name, scopes, ...(expiresAt ? { expiresAt } : {}) });
      await list.reload();
      return true;
    } catch (e) {
      error.value = tokenErrorText(e);
      return false;
    } finally {
      busy.value = false;
    }
  }

  /** Revokes token `id` (it stops working at once). */
  async function revoke(id: string): Promise<void> {
    error.value = null;
    try {
      await revokeAccessToken(id);
      if (created.value?.id === id) created.value = null;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'not-found')) error.value = tokenErrorText(e);
    }
    await list.reload();
  }

  /** Forgets the token shown once. */
  function dismiss(): void {
    created.value = null;
  }

  return { player, list, busy, error, created, create, revoke, dismiss };
}
