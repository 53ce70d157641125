// @vitest-environment happy-dom
/**
 * usePlayer's links (issue 53, item 6), as the attacker: someone sends a player a link meant to swap the
 * account of their device. `/?token=<someone else's token>` never replaces the stored token (no request even
 * carries it); a `#signin=` code on a device signed in as someone asks first, in the app's confirmation
 * dialog, and keeps the device's token unless the player agrees. The server is a fake `fetch` answering like
 * the real routes; usePlayer, the confirmation and the REST helpers are the real ones.
 */
import type { ServerFrame } from '@klondike/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const MINE = {
  token: 'mine-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  id: 'AAAAAAAAAAAAAAAA',
  name: 'Owner',
};
const THEIRS = {
  token: 'their-token-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  id: 'BBBBBBBBBBBBBBBB',
  name: 'Thief',
};
const CODE = '0123456789ABCDEF0123456789ABCDEF';

function me(p: typeof MINE) {
  return {
    id: p.id,
    name: p.name,
    bot: false,
    createdAt: '2026-12-01T00:00:00.000Z',
    stats: {
      played: 0,
      wins: 0,
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      bestTimeMs: { 'classic-draw1': null, 'classic-draw3': null },
    },
    settings: {},
  };
}

/** Every request the page made: method, path, the bearer token it carried. */
let calls: { method: string; path: string; token: string | null }[] = [];

function fakeServer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
  const method = init?.method ?? 'GET';
  const auth = new Headers(init?.headers).get('authorization');
  const token = auth?.replace(/^Bearer /, '') ?? null;
  calls.push({ method, path, token });
  const json = (status: number, body: unknown) =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  if (method === 'GET' && path === '/api/me') {
    const who = [MINE, THEIRS].find((p) => p.token === token);
    return who
      ? json(200, me(who))
      : json(401, { error: { code: 'unknown-token', message: 'unknown player token' } });
  }
  if (method === 'POST' && path === '/api/players/transfer')
    return json(200, { id: THEIRS.id, name: THEIRS.name, bot: false, token: THEIRS.token });
  return json(404, { error: { code: 'not-found', message: 'no such route' } });
}

/** A socket that only records what it is told. */
function fakeSocket() {
  const handlers: ((f: ServerFrame) => void)[] = [];
  const auth: (string | null)[] = [];
  return {
    auth,
    socket: {
      status: { value: 'open' },
      send: () => true,
      onFrame(h: (f: ServerFrame) => void) {
        handlers.push(h);
        return () => {};
      },
      onOpen: () => () => {},
      reconnectNow() {},
      setAuth(t: string | null) {
        auth.push(t);
      },
      close() {},
    },
    emit: (f: ServerFrame) => handlers.forEach((h) => h(f)),
  };
}

/** Opens `url` on a device whose storage holds `stored`; a fresh copy of the app's modules. */
async function open(url: string, stored: string | null) {
  vi.resetModules();
  localStorage.clear();
  if (stored) localStorage.setItem('klondike.token', stored);
  history.replaceState(null, '', url);
  const { usePlayer } = await import('../../src/composables/usePlayer');
  const confirm = await import('../../src/composables/useConfirm');
  const { useNotify } = await import('../../src/composables/useNotify');
  const s = fakeSocket();
  const player = usePlayer();
  player.start(s.socket as unknown as Parameters<typeof player.start>[0]);
  return { player, confirm, toasts: useNotify().toasts, socket: s };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await flush();
  expect(check()).toBe(true);
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(fakeServer));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a link never swaps the account by itself', () => {
  it('/?token=<someone else’s token> is stripped and ignored: the stored token stays, nobody sends theirs', async () => {
    const { player, toasts } = await open(`/?deal=5&token=${THEIRS.token}`, MINE.token);
    await player.settled();
    await until(() => player.me.value !== null);
    expect(location.search).toBe('?deal=5');
    expect(localStorage.getItem('klondike.token')).toBe(MINE.token);
    expect(player.me.value?.name).toBe(MINE.name);
    expect(calls.some((c) => c.token === THEIRS.token)).toBe(false);
    expect(toasts.some((t) => /token/i.test(t.text))).toBe(true);
  });

  it('/?token= on a device signed in as nobody signs nobody in', async () => {
    const { player } = await open(`/?token=${THEIRS.token}`, null);
    await player.settled();
    await flush();
    expect(player.token.value).toBeNull();
    expect(localStorage.getItem('klondike.token')).toBeNull();
    expect(calls.some((c) => c.token === THEIRS.token)).toBe(false);
  });

  it('#signin= on a signed-in device asks first, naming who is signed in; Cancel keeps the token, the code unused', async () => {
    const { player, confirm } = await open(`/#signin=${CODE}`, MINE.token);
    expect(location.hash).toBe('');
    await until(() => confirm.confirmRequest.value !== null);
    expect(confirm.confirmRequest.value?.question).toContain(MINE.name);
    expect(confirm.confirmRequest.value?.confirmLabel).toBe('Switch player');
    confirm.answerConfirm(false);
    await player.settled();
    expect(localStorage.getItem('klondike.token')).toBe(MINE.token);
    expect(player.token.value).toBe(MINE.token);
    expect(calls.some((c) => c.path === '/api/players/transfer')).toBe(false);
  });

  it('#signin= switches only once the player agrees to drop the token it had', async () => {
    const { player, confirm, socket } = await open(`/#signin=${CODE}`, MINE.token);
    await until(() => confirm.confirmRequest.value !== null);
    expect(calls.some((c) => c.path === '/api/players/transfer')).toBe(false);
    confirm.answerConfirm(true);
    await player.settled();
    await until(() => player.me.value?.name === THEIRS.name);
    expect(localStorage.getItem('klondike.token')).toBe(THEIRS.token);
    expect(socket.auth.at(-1)).toBe(THEIRS.token);
  });

  it('#signin= on a device signed in as nobody signs in at once (nothing to lose)', async () => {
    const { player, confirm } = await open(`/#signin=${CODE}`, null);
    await player.settled();
    expect(confirm.confirmRequest.value).toBeNull();
    expect(localStorage.getItem('klondike.token')).toBe(THEIRS.token);
  });
});

describe('a revoked token on the socket', () => {
  it('an `unknown-token` error frame makes the device check its token: a revoked one is dropped', async () => {
    const { player, socket } = await open('/', MINE.token);
    await until(() => player.me.value !== null);
    // Signed out everywhere from another device: the server forgets the token and closes this socket.
    const revoked = { ...MINE };
    MINE.token = 'gone';
    try {
      socket.emit({ type: 'error', code: 'unknown-token', message: 'this token was revoked' });
      await until(() => player.token.value === null);
      expect(localStorage.getItem('klondike.token')).toBeNull();
      expect(calls.filter((c) => c.path === '/api/me' && c.token === revoked.token).length).toBe(2);
    } finally {
      MINE.token = revoked.token;
    }
  });
});
