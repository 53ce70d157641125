/**
 * The deal embargo (docs/fairness.md "The deal embargo", docs/features.md "Fair play"): while a daily's day is
 * open, or a race is in its lobby, countdown or running, its deal may not be played, solved or hinted anywhere
 * else. `POST /api/games` (a typed deal, a deal number, `sameDealAs`), `POST /api/solve` and the hints of
 * casual games ask `check(deal)`, which refuses with 403 `deal-embargoed`.
 *
 * What is matched is what everyone who has seen the deal knows: the seven cards face up at the deal, pile 1 to
 * pile 7 (`embargoKey`). The face-down cards and the stock take no part, so every arrangement of the cards a
 * requester has not seen gets the same answer: the embargo cannot be asked which arrangement is the live one
 * (it was an oracle when it compared whole deals). A deal with the same seven face-up cards as a live one is
 * refused whatever the rest; another deal shares them by chance about once in 52·51·…·46 ≈ 6.7·10¹¹.
 *
 * Deals are compared by a keyed hash of that key — HMAC-SHA256(hash key, `embargoKey(deal)`) — never by their
 * text: a race stores its hash (`Race.dealHash`, indexed) and the open dailies' hashes are kept in memory per
 * stored row. The hash key is made once from crypto randomness and kept in the database (`Setting`), so every
 * node computes the same hashes; neither the key nor a hash is ever sent.
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  type Card,
  DEFAULT_PRESET,
  type Deal,
  cardCode,
  newGame,
  parseDeal,
  resolveOptions,
} from '@klondike/rules';
import { utcDate } from '../../infra/dates.js';
import { ApiError } from '../../infra/errors.js';
import type { FairnessRepository, RaceStatus } from './repository.js';

/** `Setting` key of the deal-hash key. */
export const DEAL_HASH_KEY = 'deal-hash-key';

/** Race statuses during which a race's deal is embargoed. */
const RACE_EMBARGO: readonly RaceStatus[] = ['lobby', 'countdown', 'running'];

/** What the embargo's hash is computed over (versioned, so that another key can never collide with it). */
const KEY_PREFIX = 'embargo-v2|face-up|';

/**
 * The embargo key of a deal: the codes of the seven cards face up at the deal (the top card of each tableau
 * pile, docs/rules.md R2), pile 1 first, after `embargo-v2|face-up|`. Every deal that differs from another
 * only in its face-down tableau cards or its stock has the same key.
 */
export function embargoKey(deal: Deal): string {
  // Face-down counts do not depend on the options: pile p holds p face-down cards under its top card.
  const start = newGame(deal, resolveOptions(DEFAULT_PRESET));
  return KEY_PREFIX + start.tableau.map((pile) => cardCode(pile.cards[pile.faceDown] as Card)).join(' ');
}

/** Keyed deal hashes and the embargo check. */
export class DealEmbargo {
  private keyValue: Promise<string> | undefined;
  /** DailyDeal.id → hash of its deal (a stored daily never changes). */
  private readonly dailyHashes = new Map<number, string>();

  /** `repo`: the fairness rows; `now` is the server clock (ms since the epoch). */
  constructor(
    private readonly repo: FairnessRepository,
    private readonly now: () => number,
  ) {}

  /**
   * The keyed hash (hex) of a deal's embargo key (`embargoKey`): equal for two deals exactly when their seven
   * face-up cards are. Secret: stored server-side only. Throws on a deal text that does not parse (stored
   * deals always do).
   */
  async hash(deal: Deal | string): Promise<string> {
    let cards: Deal;
    if (typeof deal === 'string') {
      const parsed = parseDeal(deal);
      if (!parsed.ok) throw new Error(`embargo: unreadable deal: ${parsed.error.message}`);
      cards = parsed.value;
    } else cards = deal;
    return createHmac('sha256', await this.key())
      .update(embargoKey(cards), 'utf8')
      .digest('hex');
  }

  /**
   * Refuses a deal whose seven face-up cards are those of an open daily (today's or a later stored day's) or
   * of a race not yet finished, whatever its other cards. Errors: `deal-embargoed` (403), with one message
   * per kind of competition (never anything of the live deal).
   */
  async check(deal: Deal | string): Promise<void> {
    const h = await this.hash(deal);
    if (await this.repo.raceWithHash(h, RACE_EMBARGO))
      throw new ApiError(
        'deal-embargoed',
        'this deal belongs to a race that is still on; it can be played and solved once the race has finished',
      );
    const open = await this.repo.dailyDealsFrom(utcDate(this.now()));
    for (const row of open) {
      let dh = this.dailyHashes.get(row.id);
      if (dh === undefined) {
        dh = await this.hash(row.deal);
        this.dailyHashes.set(row.id, dh);
      }
      if (dh === h)
        throw new ApiError(
          'deal-embargoed',
          "this is an open daily's deal; it can be played and solved once its day has closed",
        );
    }
  }

  /**
   * Recomputes the stored hash of every race still on (lobby, countdown, running) and writes the ones that
   * differ: a race stored by a server that hashed whole deals keeps its embargo across the upgrade (with several
   * nodes races outlive a restart). Reads the hash key only when there is such a race. Returns how many rows it
   * rewrote.
   */
  async rehashLiveRaces(): Promise<number> {
    const live = await this.repo.racesIn(RACE_EMBARGO);
    let rewritten = 0;
    for (const race of live) {
      const h = await this.hash(race.deal);
      if (h === race.dealHash) continue;
      if (await this.repo.rehashRace(race.code, race.dealHash, h)) rewritten++;
    }
    return rewritten;
  }

  private key(): Promise<string> {
    if (!this.keyValue) {
      this.keyValue = this.repo.setting(DEAL_HASH_KEY, () => randomBytes(32).toString('hex'));
      this.keyValue.catch(() => {
        this.keyValue = undefined;
      });
    }
    return this.keyValue;
  }
}
