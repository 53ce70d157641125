/** REST calls of arenas (docs/arenas.md; loaded with the arena pages only). */
import type { Arena, CreateArenaBody, Race } from '@klondike/protocol';
import type { z } from 'zod';
import type { Protocol } from './schemas';
import { request } from './api';

/** Upcoming, running and recently finished arenas. */
export type ArenaList = z.infer<Protocol['ArenaListSchema']>;

const path = (id: string, tail = '') => `/api/arenas/${encodeURIComponent(id)}${tail}`;

export function listArenas(): Promise<ArenaList> {
  return request('GET', '/api/arenas', (p) => p.ArenaListSchema);
}

export function getArena(id: string): Promise<Arena> {
  return request('GET', path(id), (p) => p.ArenaSchema);
}

/** Makes an arena (a token is needed). */
export function createArena(body: CreateArenaBody): Promise<Arena> {
  return request('POST', '/api/arenas', (p) => p.ArenaSchema, body);
}

/** Joins, or comes back from a pause. */
export function joinArena(id: string, inviteCode?: string): Promise<Arena> {
  return request('POST', path(id, '/join'), (p) => p.ArenaSchema, inviteCode ? { inviteCode } : {});
}

/** Pauses: no new pairings. */
export function pauseArena(id: string): Promise<Arena> {
  return request('POST', path(id, '/leave'), (p) => p.ArenaSchema, {});
}

/** Goes berserk in the caller's arena race (before its countdown ends). */
export function berserkArena(id: string): Promise<Race> {
  return request('POST', path(id, '/berserk'), (p) => p.RaceSchema, {});
}
