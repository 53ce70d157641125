/**
 * The events streams' deliveries besides `paired` (docs/api.md "Streams"), on every node through the bus:
 *
 * - an invitation (a race's rematch: races/rematch.ts) goes to each invited player's open streams — on this
 *   node at once, on the others through bus channel `player-events`;
 * - a day opening (daily/schedule.ts `onOpened`: a day's dailies first found playable) goes to every open
 *   stream, once per date. Every node that finds a day open announces it on bus channel `daily-opened`, so
 *   a node that never runs the daily job still hears it; each node delivers a date only when it is later than
 *   the last one it delivered, so repeats (several nodes, a node restarting) are dropped.
 *
 * Lines are built here and checked against the protocol's `EventStreamLineSchema`; bus messages are
 * checked again on arrival (another node's data is never trusted blindly).
 */
import { DAILY_PRESETS, type EventStreamLine, EventStreamLineSchema } from '@klondike/protocol';
import { z } from 'zod';
import type { EventBus } from '../../infra/bus/event-bus.js';

/** Bus channel of invitations between nodes. */
const INVITATIONS = 'player-events';
/** Bus channel of opened days between nodes. */
const DAILY_OPENED = 'daily-opened';

/** Something an events line can be written to (an open events stream). */
export interface EventSink {
  /** Writes one line (JSON text without its newline). */
  line(json: string): void;
}

/** An invitation on the bus: its line and who gets it. */
const InvitationNoticeSchema = z.object({
  playerIds: z.array(z.string().min(1).max(64)).max(100),
  line: z.unknown(),
});
/** A day opening on the bus. */
const OpenedNoticeSchema = z.object({ date: z.string() });

/** What an invitation carries (races/rematch.ts `RaceInvitation`). */
export interface InvitationInput {
  readonly kind: 'rematch';
  readonly code: string;
  readonly rematchOf: string;
  readonly from: { readonly id: string; readonly name: string };
  readonly playerIds: readonly string[];
}

/** The events streams of one node, by player, and their deliveries (see the module comment). */
export class PlayerEvents {
  private readonly sinks = new Map<string, Set<EventSink>>();
  /** The last day delivered by this node (YYYY-MM-DD), or null before the first. */
  private lastOpened: string | null = null;
  private readonly stopBus: (() => void)[];

  /** Listens to the bus channels at once; `close` stops. */
  constructor(private readonly bus: EventBus) {
    this.stopBus = [
      bus.subscribe(INVITATIONS, (m) => {
        const notice = InvitationNoticeSchema.safeParse(m);
        if (!notice.success) return;
        const line = EventStreamLineSchema.safeParse(notice.data.line);
        if (line.success && line.data.type === 'race-invitation')
          this.deliver(notice.data.playerIds, line.data);
      }),
      bus.subscribe(DAILY_OPENED, (m) => {
        const notice = OpenedNoticeSchema.safeParse(m);
        if (notice.success) this.opened(notice.data.date, false);
      }),
    ];
  }

  /** Adds `sink` as one of `playerId`'s events streams; returns the function that removes it. */
  listen(playerId: string, sink: EventSink): () => void {
    let set = this.sinks.get(playerId);
    if (set === undefined) this.sinks.set(playerId, (set = new Set()));
    set.add(sink);
    return () => {
      const s = this.sinks.get(playerId);
      s?.delete(sink);
      if (s?.size === 0) this.sinks.delete(playerId);
    };
  }

  /** Open events streams on this node. */
  get size(): number {
    let n = 0;
    for (const s of this.sinks.values()) n += s.size;
    return n;
  }

  /** Sends a `race-invitation` line to the invited players' streams, on every node. */
  invite(invitation: InvitationInput): void {
    const line = EventStreamLineSchema.parse({
      type: 'race-invitation',
      kind: invitation.kind,
      code: invitation.code,
      from: invitation.from,
      rematchOf: invitation.rematchOf,
    });
    this.deliver(invitation.playerIds, line);
    this.bus.publish(INVITATIONS, { playerIds: invitation.playerIds, line });
  }

  /**
   * Day `date` (YYYY-MM-DD) is open: a `daily-opened` line to every stream of this node unless this node
   * already delivered that day or a later one (then nothing happens); `announce` (this node found it) also
   * tells the other nodes.
   */
  opened(date: string, announce = true): void {
    const line = EventStreamLineSchema.safeParse({ type: 'daily-opened', date, presets: [...DAILY_PRESETS] });
    if (!line.success) return;
    if (this.lastOpened !== null && date <= this.lastOpened) return;
    this.lastOpened = date;
    if (announce) this.bus.publish(DAILY_OPENED, { date });
    const text = JSON.stringify(line.data);
    for (const set of this.sinks.values()) for (const s of [...set]) s.line(text);
  }

  /** Stops listening to the bus. */
  close(): void {
    for (const stop of this.stopBus.splice(0)) stop();
  }

  /** Writes `line` to this node's streams of `playerIds`. */
  private deliver(playerIds: readonly string[], line: EventStreamLine): void {
    const text = JSON.stringify(line);
    for (const id of new Set(playerIds)) for (const s of [...(this.sinks.get(id) ?? [])]) s.line(text);
  }
}
