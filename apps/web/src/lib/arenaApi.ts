/** REST calls of arenas (docs/arenas.md; loaded with the arena pages only), through the typed client. */
import type { Arena, CreateArenaBody, Race } from '@klondike/protocol';
import type { z } from 'zod';
import type { Protocol } from './schemas';
import { callApi } from './api';

/** Upcoming, running and recently finished arenas. */
export type ArenaList = z.infer<Protocol['ArenaListSchema']>;

export function listArenas(): Promise<ArenaList> {
  return callApi(
    (c) => c.listArenas(),
    (p) => p.ArenaListSchema,
  );
}

export function getArena(id: string): Promise<Arena> {
  return callApi(
    (c) => c.getArena(id),
    (p) => p.ArenaSchema,
  );
}

/** Makes an arena (a token is needed). */
export function createArena(body: CreateArenaBody): Promise<Arena> {
  return callApi(
    (c) => c.createArena(body),
    (p) => p.ArenaSchema,
  );
}

/** Joins, or comes back from a pause. */
export function joinArena(id: string, inviteCode?: string): Promise<Arena> {
  return callApi(
    (c) => c.joinArena(id, inviteCode || undefined),
    (p) => p.ArenaSchema,
  );
}

/** Pauses: no new pairings. */
export function pauseArena(id: string): Promise<Arena> {
  return callApi(
    (c) => c.leaveArena(id),
    (p) => p.ArenaSchema,
  );
}

/** Goes berserk in the caller's arena race (before its countdown ends). */
export function berserkArena(id: string): Promise<Race> {
  return callApi(
    (c) => c.berserkArena(id),
    (p) => p.RaceSchema,
  );
}
