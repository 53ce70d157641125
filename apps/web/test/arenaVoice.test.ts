/** What an arena says (src/lib/arenaVoice.ts): pairing, the player's own standing, the time left's marks. */
import type { Arena } from '@klondike/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMessageSection } from '../src/i18n';
import { arenaNews } from '../src/lib/arenaVoice';

const standing = (playerId: string, rank: number, points: number) => ({
  rank,
  playerId,
  name: playerId,
  points,
  games: 1,
  wins: 0,
  streak: 0,
  fire: false,
  paused: false,
});

const arena: Arena = {
  id: 'AbCdEfGhJk',
  name: 'Arena',
  preset: 'classic-draw1',
  status: 'running',
  startsAt: '2026-12-06T10:00:00.000Z',
  endsAt: '2026-12-06T11:00:00.000Z',
  rated: true,
  inviteOnly: false,
  bots: false,
  raceTimeLimitMs: 300_000,
  players: 2,
  scheduled: false,
  official: false,
  serverNow: '2026-12-06T10:30:00.000Z',
  standings: [standing('ann', 1, 4), standing('me', 2, 2)],
  me: { joined: true, paused: false, pairedRace: null, inviteCode: null },
  podium: null,
};

describe('arena voice', () => {
  beforeAll(() => loadMessageSection('a11y'));

  it('says the pairing and a new standing once each, and nothing when nothing changed', () => {
    const paired: Arena = {
      ...arena,
      me: { joined: true, paused: false, pairedRace: 'ABCDEFGHJK', inviteCode: null },
      standings: [standing('me', 1, 6), standing('ann', 2, 4)],
    };
    expect(arenaNews(arena, paired, 'me', 600_000 + 9, 600_000 + 5)).toEqual([
      'Paired: your race starts.',
      'You are 1st of 2, 6 points.',
    ]);
    expect(arenaNews(paired, paired, 'me', 700_000, 690_000)).toEqual([]);
  });

  it('says the time left as it crosses 10, 5 and 1 minutes, while running only', () => {
    expect(arenaNews(arena, arena, 'me', 600_500, 599_500)).toEqual(['9:59 left in the arena.']);
    expect(arenaNews(arena, arena, 'me', 60_200, 59_800)).toEqual(['0:59 left in the arena.']);
    expect(arenaNews(arena, { ...arena, status: 'finished' }, 'me', 60_200, 59_800)).toEqual([]);
  });
});
