/**
 * Who may see an arena by its id (docs/arenas.md "Invite-only arenas"). An open arena is public; an
 * invite-only one is seen only by its creator and its players (who joined with the code; pausing keeps a
 * player in). To anyone else it is answered exactly as a missing arena is (404 `not-found`, the same
 * message), so its standings stay unread and its existence does not leak.
 */

/** The fields of an arena's row that decide who sees it. */
export interface ArenaMembership {
  /** The invite code, or null for an open arena. */
  readonly inviteCode: string | null;
  /** The player who made it, or null for a scheduled arena. */
  readonly createdBy: string | null;
  readonly players: readonly { readonly playerId: string }[];
}

/** Whether `viewer` (a player id, or null for an anonymous caller) may see the arena. */
export function canSeeArena(arena: ArenaMembership, viewer: string | null): boolean {
  if (arena.inviteCode === null) return true;
  if (viewer === null) return false;
  return arena.createdBy === viewer || arena.players.some((p) => p.playerId === viewer);
}

/** The `not-found` message of a missing arena, and of one hidden from its caller (the same, on purpose). */
export function noArena(id: string): string {
  return `no arena ${id}`;
}
