// @vitest-environment happy-dom
/**
 * An invite-only arena the caller is not in answers 404, as a missing one does (issue 53): the arena page then
 * offers the invite-code field instead of loading forever, and joining with the code shows the arena. The
 * API answers are fixtures served through a stubbed fetch (the page, not the server, is under test here).
 */
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import { usePlayer } from '../../src/composables/usePlayer';
import { loadSchemas } from '../../src/lib/schemas';
import ArenaPage from '../../src/pages/ArenaPage.vue';
import { createAppRouter } from '../../src/router';

const ID = 'ABCDEFGHJK';

const arena = {
  id: ID,
  name: "Ann's arena",
  preset: 'classic-draw1',
  status: 'running',
  startsAt: '2026-12-06T10:00:00.000Z',
  endsAt: '2026-12-06T11:00:00.000Z',
  rated: true,
  inviteOnly: true,
  bots: false,
  raceTimeLimitMs: 300_000,
  players: 2,
  scheduled: false,
  official: false,
  serverNow: '2026-12-06T10:30:00.000Z',
  standings: [],
  me: { joined: true, paused: false, pairedRace: null, inviteCode: null },
  podium: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('arena page, invite-only and hidden', () => {
  it('a 404 offers the invite code; joining with it shows the arena', async () => {
    await loadSchemas();
    usePlayer().token.value = 'tok'; // signed in (joining needs a player)
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        // The client sends JSON bodies as strings.
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
        calls.push({ method, url, body });
        if (method === 'POST' && url.endsWith('/join'))
          return Promise.resolve(new Response(JSON.stringify(arena), { status: 200 }));
        if (method === 'GET' && url.endsWith(`/api/arenas/${ID}`))
          return Promise.resolve(
            new Response(JSON.stringify({ error: { code: 'not-found', message: `no arena ${ID}` } }), {
              status: 404,
            }),
          );
        return Promise.resolve(
          new Response(JSON.stringify({ error: { code: 'not-found', message: 'no' } }), { status: 404 }),
        );
      }),
    );
    const router = createAppRouter(createMemoryHistory());
    await router.push(`/arenas/${ID}`);
    await router.isReady();
    const w = mount(ArenaPage, { props: { id: ID }, global: { plugins: [router] } });
    await flushPromises();
    expect(w.find('[data-testid="arena-hidden"]').exists()).toBe(true);
    expect(w.find('.skeleton').exists()).toBe(false);
    await w.get('[data-testid="arena-hidden"] input').setValue('CODE234567');
    await w.get('[data-testid="arena-join-code"]').trigger('click');
    await flushPromises();
    const join = calls.find((c) => c.method === 'POST');
    expect(join?.body).toEqual({ inviteCode: 'CODE234567' });
    expect(
      w.find('[data-testid="arena-error"]').exists() ? w.get('[data-testid="arena-error"]').text() : '',
    ).toBe('');
    expect(w.find('[data-testid="arena-hidden"]').exists()).toBe(false);
    expect(w.get('[data-testid="arena-name"]').text()).toBe("Ann's arena");
    w.unmount();
    usePlayer().token.value = null;
  });
});
