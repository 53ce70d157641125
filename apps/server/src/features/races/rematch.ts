/**
 * A race's rematch (races/service.ts `rematch`): an invitation (docs/ratings.md "Consent and ranking"). The
 * first racer to ask makes the new room — the same options, seats and rating, a fresh random deal (certified →
 * certified, anything else → random: never a deal anyone knows) — and is its host and only racer. The others
 * join it, or ask too: a later request seats its caller in the first rematch while its lobby has a seat.
 */
import { GameOptionsSchema, type Race } from '@klondike/protocol';
import { isPresetName } from '@klondike/rules';
import { ApiError } from '../../infra/errors.js';
import type { AuthedPlayer } from '../players/players.js';
import { type CertifyOptions, type DealKind, pickDeal } from './deals.js';
import type { NewRace, RaceRepository, RaceRow } from './repository.js';

/** What a rematch takes from the race service. */
export interface RematchDeps {
  readonly repository: RaceRepository;
  /** Certifies a `certified` rematch's deal. */
  readonly certify: CertifyOptions;
  /** Stores and announces a new room, the rematch of `rematchOf`; null when another request made it first. */
  readonly insert: (r: NewRace, rematchOf: string) => Promise<string | null>;
  /** Publishes a room to its listeners on every node. */
  readonly publish: (row: RaceRow) => void;
  /** Seats `player` in room `code` (RaceService.join; its errors). */
  readonly join: (code: string, player: AuthedPlayer) => Promise<Race>;
  /** Room `code` as `viewer` sees it. */
  readonly view: (code: string, viewer: string) => Promise<Race>;
  /**
   * Refuses (403 `forbidden`) a caller who may not sit in a rated room when `rated` (races/eligibility.ts);
   * the others are checked when they join.
   */
  readonly assertEligible: (rated: boolean) => Promise<void>;
  /** Tells the other racers of the finished race that its rematch exists (their events streams). */
  readonly invite: (invitation: RaceInvitation) => void;
}

/** An invitation to a race room: the rematch `code` of finished race `rematchOf`, made by `from`. */
export interface RaceInvitation {
  readonly kind: 'rematch';
  /** The new room. */
  readonly code: string;
  /** The finished race. */
  readonly rematchOf: string;
  /** The new room's host. */
  readonly from: { readonly id: string; readonly name: string };
  /** The invited players: the finished race's other racers. */
  readonly playerIds: readonly string[];
}

/**
 * `player`'s request for a rematch of finished race `code`: the new room seating only them (`created`), or
 * their seat in the rematch already made (their room as it is when its lobby is full or has started).
 * Errors: `not-found`; `forbidden` for a non-racer or an ineligible caller of a rated rematch; `conflict`
 * before the race has finished; `solver-busy` when no certified deal was found.
 */
export async function rematchRace(
  d: RematchDeps,
  code: string,
  player: AuthedPlayer,
): Promise<{ race: Race; created: boolean }> {
  const row = await d.repository.room(code);
  if (!row.racers.some((r) => r.playerId === player.id))
    throw new ApiError('forbidden', 'only a racer of this race may ask for a rematch');
  if (row.status !== 'finished') throw new ApiError('conflict', 'a rematch follows a finished race');
  if (row.rematchCode !== null) return { race: await answer(d, row.rematchCode, player), created: false };
  await d.assertEligible(row.rated);
  const options = GameOptionsSchema.parse(row.options);
  const kind: DealKind = row.dealKind === 'certified' ? 'certified' : 'random';
  const picked = await pickDeal(d.certify, kind, options, player.id);
  const made = await d.insert(
    {
      preset: row.preset !== null && isPresetName(row.preset) ? row.preset : null,
      options,
      dealKind: kind,
      rated: row.rated,
      ...picked,
      maxPlayers: row.maxPlayers,
      timeLimitMs: row.timeLimitMs,
      hostId: player.id,
      racers: [player.id],
    },
    code,
  );
  if (made === null) {
    const again = await d.repository.room(code);
    return { race: await answer(d, again.rematchCode ?? code, player), created: false };
  }
  // The old room now names its rematch: its listeners (on every node) hear it.
  d.publish(await d.repository.room(code));
  d.invite({
    kind: 'rematch',
    code: made,
    rematchOf: code,
    from: { id: player.id, name: player.name },
    playerIds: row.racers.map((r) => r.playerId).filter((id) => id !== player.id),
  });
  return { race: await d.view(made, player.id), created: true };
}

/** A racer's answer to rematch `code`: a seat while its lobby has one, else the room as it is. */
async function answer(d: RematchDeps, code: string, player: AuthedPlayer): Promise<Race> {
  const taken = await d.join(code, player).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'conflict') return null;
    throw err;
  });
  return taken ?? d.view(code, player.id);
}
