/**
 * Who is playing: the player token (kept in localStorage, sent as a bearer token on every REST call and as the
 * `auth` frame on every (re)connection of the socket), the player's own record (GET /api/me), sign-up, rename,
 * the sign-in link for another device and opening one (`#signin=…`: asks first when this device is signed in
 * as someone, and keeps that token unless the player agrees to drop it). A token is never taken from a URL:
 * `?token=…` is stripped from the address and ignored. App-wide state; the player dialog's open/closed state
 * lives here too so any page can ask for a sign-up.
 */
import type { MeSchema } from '@klondike/protocol';
import { computed, ref, shallowRef } from 'vue';
import type { z } from 'zod';
import {
  ApiError,
  createPlayer,
  getMe,
  getTransfer,
  onTokenRejected,
  redeemTransfer,
  renameMe,
  setApiToken,
  signOutEverywhere,
} from '../lib/api';
import { tr } from '../i18n';
import { takeSignIn } from '../lib/route';
import { askConfirm } from './useConfirm';
import { useNotify } from './useNotify';
import type { Socket } from './useSocket';

export type Me = z.infer<typeof MeSchema>;

const TOKEN_KEY = 'klondike.token';

function readStored(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function store(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* private mode: the token lives for this tab only */
  }
}

const token = ref<string | null>(null);
const me = shallowRef<Me | null>(null);
/** The player dialog: sign up, or the account panel (rename, other device). */
const dialog = ref<null | 'signup' | 'account'>(null);
let afterSignUp: (() => void) | null = null;
let socketRef: Socket | null = null;
let started = false;
/** Settles once the sign-in link this page was opened with (if any) has been taken or refused. */
let signingIn: Promise<void> = Promise.resolve();

function setToken(t: string | null): void {
  token.value = t;
  store(t);
  setApiToken(t);
  socketRef?.setAuth(t);
  if (!t) me.value = null;
}

async function refresh(): Promise<void> {
  if (!token.value) return;
  try {
    me.value = await getMe();
  } catch (e) {
    if (
      e instanceof ApiError &&
      (e.code === 'unauthorized' || e.code === 'unknown-token' || e.code === 'not-found')
    )
      setToken(null);
  }
}

/**
 * Starts identity handling once: the stored token; a sign-in link's code from the URL (stripped at once, then
 * offered: `offerSignIn`); a `?token=` in the URL stripped and ignored; wires the socket's auth, and checks the
 * token again when the socket says it was revoked.
 */
function start(socket: Socket): void {
  if (started) return;
  started = true;
  socketRef = socket;
  const { toast } = useNotify();
  onTokenRejected((t) => {
    if (t !== token.value) return;
    setToken(null);
    toast(tr('player.signedOutDevice'), 'info', 6000);
  });
  socket.onFrame((f) => {
    if (f.type === 'authed' && me.value && f.playerId === me.value.id && f.name !== me.value.name)
      me.value = { ...me.value, name: f.name };
    // The server closes a socket whose token was revoked (signed out everywhere, rotated): REST confirms it
    // (a 401 signs this device out) before anything is dropped.
    if (f.type === 'error' && f.code === 'unknown-token' && token.value) void refresh();
  });
  const { code, hadToken, cleanUrl } = takeSignIn(location.pathname, location.search, location.hash);
  if (code || hadToken) history.replaceState(history.state, '', cleanUrl);
  const stored = readStored();
  if (stored) setToken(stored);
  if (hadToken) toast(tr('player.tokenLinkIgnored'), 'info', 8000);
  if (code) signingIn = offerSignIn(code);
  else if (stored) void refresh();
}

/**
 * Opens a sign-in link: at once on a device signed in as nobody; else only after the player agrees, in the
 * app's confirmation dialog, to drop this device's token for the link's player. Refused, nothing changes
 * (the code stays unused until it expires).
 */
async function offerSignIn(code: string): Promise<void> {
  if (token.value) {
    await refresh(); // who is signed in here (a token the server no longer knows is dropped by this)
    if (token.value) {
      const name = me.value?.name;
      const question =
        name !== undefined ? tr('player.switchConfirm', { name }) : tr('player.switchConfirmUnnamed');
      if (!(await askConfirm(question, tr('player.switchAccount')))) {
        useNotify().toast(tr('player.switchKept'), 'info');
        return;
      }
    }
  }
  await redeem(code);
}

/**
 * Signs this device in with a sign-in link's single-use code (exchanged for a token of its own); the token
 * held until then is replaced only once the exchange succeeded.
 */
async function redeem(code: string): Promise<void> {
  const { toast } = useNotify();
  try {
    const created = await redeemTransfer(code);
    setToken(created.token);
    me.value = null;
    void refresh(); // signed in now (`settled`); the player's record follows when the server sends it
    toast(tr('player.signedInAs', { name: created.name }), 'info');
  } catch {
    toast(tr('player.linkExpired'));
  }
}

/** Creates a player and signs in as it. Throws ApiError (`conflict`: the name is taken). */
async function signUp(name: string): Promise<Me> {
  const created = await createPlayer(name.trim());
  setToken(created.token);
  const who = await getMe();
  me.value = who;
  const next = afterSignUp;
  afterSignUp = null;
  dialog.value = null;
  next?.();
  return who;
}

/** Renames the player. Throws ApiError (`conflict`: the name is taken). */
async function rename(name: string): Promise<Me> {
  const who = await renameMe(name.trim());
  me.value = who;
  return who;
}

/** The absolute sign-in link for another device. */
async function transferLink(): Promise<string> {
  const t = await getTransfer();
  return new URL(t.url, location.origin).toString();
}

/** Forgets the token on this device. */
function signOut(): void {
  setToken(null);
  dialog.value = null;
}

/** Signs the player out on every device, this one included (every token and sign-in link stops working). */
async function signOutAll(): Promise<number> {
  const { devices } = await signOutEverywhere();
  signOut();
  return devices;
}

/** Runs `then` as a player: at once when signed in, else after the sign-up dialog succeeds. */
function requirePlayer(then: () => void): void {
  if (token.value) {
    then();
    return;
  }
  afterSignUp = then;
  dialog.value = 'signup';
}

function closeDialog(): void {
  afterSignUp = null;
  dialog.value = null;
}

export function usePlayer() {
  return {
    token,
    me,
    signedIn: computed(() => token.value !== null),
    /** Resolves once a sign-in link the page was opened with is settled (at once without one). */
    settled: (): Promise<void> => signingIn,
    dialog,
    start,
    refresh,
    signUp,
    rename,
    transferLink,
    signOut,
    signOutAll,
    requirePlayer,
    closeDialog,
    openAccount: () => (dialog.value = token.value ? 'account' : 'signup'),
  };
}

export type Player = ReturnType<typeof usePlayer>;
