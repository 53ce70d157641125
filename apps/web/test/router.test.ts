/**
 * The client's routes (src/router.ts) resolved by vue-router itself over a memory history: which page each
 * address shows, with which props, and that an unknown address is a "not found" page, never a new deal.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import {
  dailyLeaderboardPath,
  dailySolutionPath,
  gamePath,
  modPlayerPath,
  playerPath,
  playerStatsPath,
  replayPath,
  shareLink,
  tableRequest,
} from '../src/lib/route';
import { createAppRouter } from '../src/router';

const router = createAppRouter(createMemoryHistory());
const resolve = (path: string) => router.resolve(path);

describe('routes', () => {
  it('the table: a game, a share link, a new deal', () => {
    expect(resolve('/game/abc_12-X')).toMatchObject({ name: 'game', params: { id: 'abc_12-X' } });
    expect(tableRequest(resolve('/game/abc_12-X'))).toEqual({ kind: 'game', id: 'abc_12-X' });
    expect(tableRequest(resolve('/?deal=123&preset=classic-draw3'))).toEqual({
      kind: 'deal',
      dealNumber: 123,
      preset: 'classic-draw3',
    });
    expect(tableRequest(resolve('/?deal=123&preset=nope'))).toEqual({
      kind: 'deal',
      dealNumber: 123,
      preset: null,
    });
    expect(tableRequest(resolve('/?deal=0'))).toEqual({ kind: 'new', preset: null });
    expect(tableRequest(resolve('/?deal=99999999999'))).toEqual({ kind: 'new', preset: null });
    expect(tableRequest(resolve('/'))).toEqual({ kind: 'new', preset: null });
    expect(resolve('/').meta.layout).toBe('table');
    expect(resolve(gamePath('g1')).meta.layout).toBe('table');
  });

  it('a share link resolves back to its deal', () => {
    const link = new URL(shareLink('http://x.test', 42, 'vegas-draw1'));
    expect(link.pathname + link.search).toBe('/?deal=42&preset=vegas-draw1');
    expect(tableRequest(resolve(link.pathname + link.search))).toEqual({
      kind: 'deal',
      dealNumber: 42,
      preset: 'vegas-draw1',
    });
  });

  it('the pages, with their props and the nav section they light', () => {
    expect(resolve('/daily')).toMatchObject({ name: 'daily', meta: { layout: 'page', nav: 'daily' } });
    expect(resolve('/daily/')).toMatchObject({ name: 'daily' });
    expect(resolve(dailyLeaderboardPath('2026-11-21', 'classic-draw3'))).toMatchObject({
      name: 'daily-leaderboard',
      params: { date: '2026-11-21', preset: 'classic-draw3' },
    });
    expect(resolve('/leaderboard')).toMatchObject({ name: 'leaderboard', meta: { nav: 'leaderboard' } });
    expect(resolve(playerPath('abc_1'))).toMatchObject({ name: 'player', params: { id: 'abc_1' } });
    expect(resolve(playerStatsPath('abc_1'))).toMatchObject({
      name: 'player-stats',
      params: { id: 'abc_1' },
      meta: { layout: 'page', nav: 'me' },
    });
    expect(resolve('/players/abc_1/stats/x')).toMatchObject({ name: 'not-found' });
    expect(resolve(replayPath('g-1'))).toMatchObject({ name: 'replay', params: { gameId: 'g-1' } });
    expect(resolve('/race')).toMatchObject({ name: 'race-new', meta: { nav: 'race' } });
    expect(resolve('/race/ABCDEFGHJK')).toMatchObject({ name: 'race', params: { code: 'ABCDEFGHJK' } });
    expect(playerPath('a b')).toBe('/players/a%20b');
    expect(resolve('/fair-play')).toMatchObject({ name: 'fair-play', meta: { layout: 'page', nav: null } });
    expect(resolve('/mod')).toMatchObject({ name: 'mod', meta: { layout: 'page', nav: null } });
    expect(resolve(modPlayerPath('abc_1'))).toMatchObject({ name: 'mod-player', params: { id: 'abc_1' } });
    expect(resolve('/mod/log')).toMatchObject({ name: 'mod-log' });
    expect(resolve('/mod/players/a b')).toMatchObject({ name: 'not-found' });
  });

  it('an unknown address is the not-found page, not a new deal', () => {
    for (const path of [
      '/nope',
      '/game/',
      '/daily/2026-11-21/vegas-draw1/leaderboard', // not a daily preset
      '/daily/21-11-2026/classic-draw1/leaderboard',
      '/race/ABC', // too short for an invite code
      '/race/ABCDEFGHI1', // I and 1 are not in the alphabet
      '/players/',
    ])
      expect(resolve(path).name, path).toBe('not-found');
  });

  it('a race link typed in lower case is taken to its upper-case room', async () => {
    const r = createAppRouter(createMemoryHistory());
    await r.push('/race/abcdefghjk');
    expect(r.currentRoute.value.fullPath).toBe('/race/ABCDEFGHJK');
    await r.push('/nope/x');
    expect(r.currentRoute.value).toMatchObject({ name: 'not-found', path: '/nope/x' }); // the address stays
  });
});

describe('the solution of a closed daily', () => {
  it('has its own address, shown by the replay page', () => {
    expect(resolve(dailySolutionPath('2026-11-20', 'classic-draw3'))).toMatchObject({
      name: 'daily-solution',
      params: { date: '2026-11-20', preset: 'classic-draw3' },
      meta: { layout: 'page', nav: 'daily' },
    });
  });
});
