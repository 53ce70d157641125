/**
 * The deal embargo (docs/features.md "Fair play"): while a daily's day is open, or a race is in its lobby, countdown
 * or running, its deal may not be played, solved or hinted anywhere else. `POST /api/games`,
 * `POST /api/solve` and the hints of casual games ask `check(deal)`, which refuses with 403
 * `deal-embargoed`.
 *
 * Deals are compared by a keyed hash — HMAC-SHA256(hash key, deal in public notation) — never by their
 * text: a race stores its deal's hash (`Race.dealHash`, indexed) and the open dailies' hashes are kept in
 * memory per stored row. The hash key is made once from crypto randomness and kept in the database
 * (`Setting`), so every node computes the same hashes; neither the key nor a hash is ever sent.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { type Deal, formatDeal } from '@klondike/rules';
import { utcDate } from '../dates.js';
import { ApiError } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** `Setting` key of the deal-hash key. */
export const DEAL_HASH_KEY = 'deal-hash-key';

/** Race statuses during which a race's deal is embargoed. */
const RACE_EMBARGO = ['lobby', 'countdown', 'running'] as const;

/** Keyed deal hashes and the embargo check. */
export class DealEmbargo {
  private keyValue: Promise<string> | undefined;
  /** DailyDeal.id → hash of its deal (a stored daily never changes). */
  private readonly dailyHashes = new Map<number, string>();

  /** `now` is the server clock (ms since the epoch). */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number,
  ) {}

  /** The keyed hash (hex) of a deal. Secret: stored server-side only. */
  async hash(deal: Deal | string): Promise<string> {
    const text = typeof deal === 'string' ? deal : formatDeal(deal);
    return createHmac('sha256', await this.key())
      .update(text, 'utf8')
      .digest('hex');
  }

  /**
   * Refuses a deal that is an open daily's (today's or a later stored day's) or the deal of a race not yet
   * finished. Errors: `deal-embargoed` (403).
   */
  async check(deal: Deal | string): Promise<void> {
    const h = await this.hash(deal);
    const race = await this.prisma.race.findFirst({
      where: { dealHash: h, status: { in: [...RACE_EMBARGO] } },
      select: { code: true },
    });
    if (race !== null)
      throw new ApiError(
        'deal-embargoed',
        'this deal belongs to a race that is still on; it can be played and solved once the race has finished',
      );
    const open = await this.prisma.dailyDeal.findMany({
      where: { date: { gte: utcDate(this.now()) } },
      select: { id: true, deal: true },
    });
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

  private key(): Promise<string> {
    if (!this.keyValue) {
      this.keyValue = (async () => {
        await this.prisma.setting.createMany({
          data: [{ key: DEAL_HASH_KEY, value: randomBytes(32).toString('hex') }],
          skipDuplicates: true,
        });
        return (await this.prisma.setting.findUniqueOrThrow({ where: { key: DEAL_HASH_KEY } })).value;
      })();
      this.keyValue.catch(() => {
        this.keyValue = undefined;
      });
    }
    return this.keyValue;
  }
}
