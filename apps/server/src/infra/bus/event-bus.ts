/**
 * The event bus between server nodes, in two ways of delivery:
 *
 * - **Topics** (`send`/`watch`): a message goes only to the other nodes that watch its topic, and nothing
 *   leaves the node when none does. Topics in use: `game:<id>` (a game's committed `state` frames, so sockets
 *   on any node follow a game whichever node wrote it: core/rooms/cluster-sync.ts), `race:<code>` (a race
 *   room's events: races/events.ts), `arena:<id>` (an arena changed: arenas/service.ts).
 * - **Channels** (`publish`/`subscribe`): a message goes to every other node listening to the channel; for
 *   what every node hears: `tokens` (revoked tokens: players/token-revocation.ts), `races` / `races:due`
 *   (the race index and the sweeper's wake-up), `leaderboards`, `pairing`, and `player-events` /
 *   `daily-opened` (streams/player-events.ts).
 *
 * Two implementations: `SingleNodeBus` (the default, no `REDIS_URL`: there is no other node, so nothing is
 * delivered) and `RedisBus` (Redis pub/sub through ioredis: one connection publishes, one listens). A
 * node never hears its own messages: it has already delivered them to its own listeners.
 *
 * How `RedisBus` routes topics (docs/architecture.md "Scale-out"): each node listens on its own channel
 * `bus:node:<id>` and on `bus:interest`, where every node announces the topics it starts and stops watching
 * (batched, one message per turn of the event loop). Every node keeps the map topic → other nodes watching
 * (bus/interest.ts) and `send` publishes once on the channel of each of those nodes. A node that joins (or
 * whose connection returns) lists the nodes present (`PUBSUB CHANNELS bus:node:*`), forgets the nodes gone,
 * announces the whole of its own interest with a `hello`, and each node present answers on its channel with the whole of its own;
 * the bus counts as up once every answer is in (or after `helloWaitMs`). A node that closes announces that
 * it watches nothing; a node that dies is forgotten by the first sender whose publish on its channel
 * reaches nobody. A message for a topic a node does not watch (its unwatch announcement was still on its
 * way) is answered with an unwatch announcement.
 *
 * Redis is an accelerator, never a dependency of a move: the connections fail fast (no offline queue, a
 * command timeout), so while Redis is away a publish is dropped at once and nothing waits for it; the
 * receivers see a version gap and resync. When it returns, every channel is subscribed again and
 * `onReconnect` listeners hear it (the rooms re-read what they may have missed).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { PeerInterest } from './interest.js';

/** Hears one channel's messages from other nodes (already parsed JSON). Must not throw. */
export type BusListener = (message: unknown) => void;

/** Publish/subscribe between the nodes of one service. */
export interface EventBus {
  /** `single` (no other node) or `redis`. */
  readonly kind: 'single' | 'redis';
  /** This node's random id (16 hex characters). */
  readonly nodeId: string;
  /** Sends `message` (JSON-serialisable) to the listeners of `channel` on every other node. */
  publish(channel: string, message: unknown): void;
  /** Listens to `channel`; returns the function that stops listening. */
  subscribe(channel: string, listener: BusListener): () => void;
  /**
   * Sends `message` (JSON-serialisable) to the watchers of `topic` on the other nodes that watch it, as far
   * as this node knows: nothing leaves the node when no other node does, and this node never hears it.
   */
  send(topic: string, message: unknown): void;
  /**
   * Watches `topic`: `listener` hears what the other nodes `send` on it, until the returned function is
   * called. The other nodes learn of the interest over the bus, so a message sent meanwhile may miss this
   * node: `settled`, when given, is called once they have heard of it (its announcement acknowledged by
   * Redis, then `interestSettleMs`), for the caller to re-read what it may have missed. Not called when the
   * bus is away first (then `onReconnect` listeners run once it is back). Must not throw.
   */
  watch(topic: string, listener: BusListener, settled?: () => void): () => void;
  /**
   * Whether messages cross to the other nodes now: always true for one node alone; for Redis, whether both
   * connections are up.
   */
  readonly connected: boolean;
  /**
   * Hears the bus coming back after it was away (every channel subscribed again): what was published
   * meanwhile is lost. Returns the function that stops listening. `listener` must not throw.
   */
  onReconnect(listener: () => void): () => void;
  /** Stops listening and closes connections. */
  close(): Promise<void>;
}

/** A new node id. */
function newNodeId(): string {
  return randomBytes(8).toString('hex');
}

/** One node alone: nothing to deliver, nobody to hear. */
export class SingleNodeBus implements EventBus {
  readonly kind = 'single';
  readonly nodeId = newNodeId();
  /** See `EventBus.publish`: there is no other node. */
  publish(): void {}
  /** See `EventBus.subscribe`: no other node will ever publish. */
  subscribe(): () => void {
    return () => {};
  }
  /** See `EventBus.send`: there is no other node. */
  send(): void {}
  /** See `EventBus.watch`: no other node will ever send. */
  watch(): () => void {
    return () => {};
  }
  /** See `EventBus.connected`: nothing to be cut off from. */
  readonly connected = true;
  /** See `EventBus.onReconnect`: never away. */
  onReconnect(): () => void {
    return () => {};
  }
  /** See `EventBus.close`. */
  async close(): Promise<void> {}
}

/** Wire shape of a channel's message: the sender and its message. */
interface Envelope {
  readonly n: string;
  readonly m: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'string' && 'm' in v;
}

/**
 * Wire shape of an announcement on `bus:interest`, from node `n`: it now watches `w` too, no longer watches
 * `u`, or watches exactly `all` (a node joining, with `hello`: answer me with yours; a node closing: `[]`).
 */
interface Announcement {
  readonly n: string;
  readonly w?: readonly string[];
  readonly u?: readonly string[];
  readonly all?: readonly string[];
  readonly hello?: true;
}

/** Wire shape of a message on a node's own channel: a topic's message (`t`, `m`) or a node's whole interest (`n`, `i`). */
interface Direct {
  readonly t?: string;
  readonly m?: unknown;
  readonly n?: string;
  readonly i?: readonly string[];
}

function isStrings(v: unknown): v is readonly string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function isAnnouncement(v: unknown): v is Announcement {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.n === 'string' &&
    (a.w === undefined || isStrings(a.w)) &&
    (a.u === undefined || isStrings(a.u)) &&
    (a.all === undefined || isStrings(a.all))
  );
}

/** The channel every node announces its interest on. */
const INTEREST = 'bus:interest';
/** Node `id`'s own channel: the messages of the topics it watches, the answers to its `hello`. */
const nodeChannel = (id: string): string => `bus:node:${id}`;

/** How RedisBus's connections fail fast and come back, and how interest settles (all in ms). */
export interface RedisBusTimings {
  /** A command without an answer this long fails (default 500). */
  readonly commandTimeoutMs?: number;
  /** A connection attempt gives up after this long (default 1000). */
  readonly connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts (default 1000). */
  readonly maxRetryDelayMs?: number;
  /**
   * After an interest announcement is acknowledged, how long until the other nodes count as having heard
   * it (`watch`'s `settled`; default 500): Redis hands it to them at once, this covers their event loops.
   */
  readonly interestSettleMs?: number;
  /** How long a joining node waits for the nodes present to answer its `hello` (default 1000). */
  readonly helloWaitMs?: number;
}

/** `text` with the glob characters of Redis patterns escaped. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * Redis pub/sub. `url` is a Redis URL (`redis://127.0.0.1:6379`); `prefix` namespaces the channels (several
 * services or test runs on one Redis). Both connections fail fast: no offline queue, so a command while
 * Redis is away fails at once, and a command Redis does not answer fails after `commandTimeoutMs`. Messages
 * published while Redis is away are lost (pub/sub keeps nothing): a socket that misses a frame sees a
 * version gap and resyncs through `subscribe`. ioredis reconnects by itself; on its return every channel
 * is subscribed again, the interest of the other nodes is learnt again (the module comment), and the
 * `onReconnect` listeners run. `onError` hears connection errors; `onState` hears the bus going down
 * (false) and coming back (true).
 */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  readonly nodeId = newNodeId();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, Set<BusListener>>();
  private readonly reconnectListeners = new Set<() => void>();
  /** The topics this node watches, with their listeners. */
  private readonly watched = new Map<string, Set<BusListener>>();
  /** The topics the other nodes watch. */
  private readonly peers = new PeerInterest();
  /** Topics to announce as watched / no longer watched at the next flush. */
  private readonly toWatch = new Set<string>();
  private readonly toUnwatch = new Set<string>();
  /** `settled` callbacks waiting for the next flush. */
  private settleWaiters: (() => void)[] = [];
  /** The flushes of announcements, one after another. */
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  /** While joining: the nodes whose answer to this node's `hello` is awaited, and who to tell when none is. */
  private awaiting: { readonly nodes: Set<string>; readonly done: () => void } | null = null;
  private joining = false;
  private readonly settleMs: number;
  private readonly helloWaitMs: number;
  /** Whether the bus was up when last looked at (both connections ready, every channel subscribed, interest learnt). */
  private up = false;
  private closed = false;

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: unknown) => void,
    private readonly onState: (up: boolean) => void = () => {},
    timings: RedisBusTimings = {},
  ) {
    const maxDelay = timings.maxRetryDelayMs ?? 1000;
    this.settleMs = timings.interestSettleMs ?? 500;
    this.helloWaitMs = timings.helloWaitMs ?? 1000;
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: timings.commandTimeoutMs ?? 500,
      connectTimeout: timings.connectTimeoutMs ?? 1000,
      retryStrategy: (times: number) => Math.min(times * 100, maxDelay),
      // The channels are subscribed again by `join`, which knows the ones asked for while Redis was away.
      autoResubscribe: false,
      lazyConnect: false,
    };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    for (const r of [this.pub, this.sub]) {
      r.on('error', onError);
      r.on('close', () => this.setUp(false));
      r.on('ready', () => this.join());
    }
    this.sub.on('message', (channel: string, text: string) => this.deliver(channel, text));
  }

  /** The connection that publishes, for other shared state in Redis (the rate limits' counters). */
  get commands(): Redis {
    return this.pub;
  }

  /** See `EventBus.connected`. */
  get connected(): boolean {
    return this.up && this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  /** Resolves once the bus is up (both connections, every channel), rejects after `timeoutMs`. */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.connected) {
      if (Date.now() >= deadline || this.closed) throw new Error('redis: not ready in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** See `EventBus.publish`. */
  publish(channel: string, message: unknown): void {
    if (this.pub.status !== 'ready') return; // Redis away: dropped at once; the version rule makes receivers resync
    const text = JSON.stringify({ n: this.nodeId, m: message } satisfies Envelope);
    this.pub.publish(this.prefix + channel, text).catch(() => {
      // lost on the way: as above
    });
  }

  /** See `EventBus.subscribe`. */
  subscribe(channel: string, listener: BusListener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      // Redis away: `join` asks again when it returns.
      if (this.sub.status === 'ready') this.sub.subscribe(this.prefix + channel).catch(() => {});
    }
    set.add(listener);
    return () => {
      const s = this.listeners.get(channel);
      if (!s?.delete(listener) || s.size > 0) return;
      this.listeners.delete(channel);
      if (this.sub.status === 'ready') this.sub.unsubscribe(this.prefix + channel).catch(() => {});
    };
  }

  /** See `EventBus.send`. */
  send(topic: string, message: unknown): void {
    const nodes = this.peers.nodes(topic);
    if (nodes.size === 0 || this.pub.status !== 'ready') return; // nobody else watches, or Redis away (as `publish`)
    const text = JSON.stringify({ t: topic, m: message } satisfies Direct);
    const mark = this.peers.mark;
    for (const node of [...nodes]) {
      this.pub.publish(this.prefix + nodeChannel(node), text).then(
        (receivers) => {
          // Nobody listens on its channel: it died, or its connection dropped (it announces all when back).
          if (receivers === 0 && !this.peers.heardSince(node, mark)) this.peers.drop(node);
        },
        () => {}, // lost on the way: as `publish`
      );
    }
  }

  /** See `EventBus.watch`. */
  watch(topic: string, listener: BusListener, settled?: () => void): () => void {
    let set = this.watched.get(topic);
    if (!set) {
      set = new Set();
      this.watched.set(topic, set);
      this.toUnwatch.delete(topic);
      this.toWatch.add(topic);
    }
    set.add(listener);
    if (settled) this.settleWaiters.push(settled);
    this.scheduleFlush();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      const s = this.watched.get(topic);
      if (!s?.delete(listener) || s.size > 0) return;
      this.watched.delete(topic);
      this.toWatch.delete(topic);
      this.toUnwatch.add(topic);
      this.scheduleFlush();
    };
  }

  /** See `EventBus.onReconnect`. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => {
      this.reconnectListeners.delete(listener);
    };
  }

  /** Announces the interest changed since the last flush, at the next turn of the event loop. */
  private scheduleFlush(delayMs = 0): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    const run = (): void => {
      this.flushScheduled = false;
      this.flushing = this.flushing.then(() => this.flush());
    };
    if (delayMs > 0) setTimeout(run, delayMs).unref();
    else setImmediate(run);
  }

  /**
   * One announcement of what this node started and stopped watching, then (after `settleMs`) the `settled`
   * callbacks that waited for it. While the bus is not up nothing is announced: joining announces all.
   */
  private async flush(): Promise<void> {
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    if (!this.up) {
      // Kept for the flush after the join (whose `hello` announces all that was watched when it was sent).
      this.settleWaiters.unshift(...waiters);
      return;
    }
    const w = [...this.toWatch];
    const u = [...this.toUnwatch];
    this.toWatch.clear();
    this.toUnwatch.clear();
    if (w.length > 0 || u.length > 0) {
      const text = JSON.stringify({
        n: this.nodeId,
        ...(w.length > 0 ? { w } : {}),
        ...(u.length > 0 ? { u } : {}),
      } satisfies Announcement);
      try {
        await this.pub.publish(this.prefix + INTEREST, text);
      } catch {
        // Not acknowledged: announce again what still holds, a little later.
        for (const t of w) if (this.watched.has(t) && !this.toUnwatch.has(t)) this.toWatch.add(t);
        for (const t of u) if (!this.watched.has(t) && !this.toWatch.has(t)) this.toUnwatch.add(t);
        this.settleWaiters.unshift(...waiters);
        this.scheduleFlush(this.settleMs);
        return;
      }
    }
    if (waiters.length === 0) return;
    setTimeout(() => {
      for (const fn of waiters) {
        try {
          fn();
        } catch {
          // a waiter's failure is its own
        }
      }
    }, this.settleMs).unref();
  }

  /**
   * Both connections ready: subscribes every channel (a new connection starts with none), learns the
   * interest of the nodes present and announces this node's, then counts the bus as up. A failure leaves
   * it down until the next `ready`.
   */
  private join(): void {
    if (this.joining || this.closed || this.pub.status !== 'ready' || this.sub.status !== 'ready') return;
    this.joining = true;
    this.learn().then(
      () => {
        this.joining = false;
        this.setUp(this.pub.status === 'ready' && this.sub.status === 'ready');
        if (this.up && this.settleWaiters.length + this.toWatch.size + this.toUnwatch.size > 0)
          this.scheduleFlush();
      },
      () => {
        this.joining = false; // lost again: the next 'ready' tries once more
      },
    );
  }

  /** See `join`: the channels, the nodes present and their interest (the module comment). */
  private async learn(): Promise<void> {
    const channels = [...this.listeners.keys(), INTEREST, nodeChannel(this.nodeId)].map(
      (c) => this.prefix + c,
    );
    await this.sub.subscribe(...channels);
    const pattern = globEscape(this.prefix + nodeChannel('')) + '*';
    const mark = this.peers.mark;
    const present = ((await this.pub.pubsub('CHANNELS', pattern)) as string[])
      .map((c) => c.slice((this.prefix + nodeChannel('')).length))
      .filter((id) => id !== this.nodeId);
    // What was known of the nodes present stands until their answers replace it (sends meanwhile still reach
    // them); the nodes gone are forgotten, unless heard from since the listing was asked for (just joined).
    for (const id of this.peers.known())
      if (!present.includes(id) && !this.peers.heardSince(id, mark)) this.peers.drop(id);
    // The `hello` below announces all this node watches: nothing older is left to announce.
    this.toWatch.clear();
    this.toUnwatch.clear();
    const answered = new Promise<void>((resolve) => {
      const nodes = new Set(present);
      if (nodes.size === 0) return resolve();
      const timer = setTimeout(() => finish(), this.helloWaitMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.awaiting = null;
        resolve();
      };
      this.awaiting = { nodes, done: finish };
    });
    const hello: Announcement = { n: this.nodeId, all: [...this.watched.keys()], hello: true };
    try {
      await this.pub.publish(this.prefix + INTEREST, JSON.stringify(hello));
    } catch (err) {
      this.awaiting?.done();
      throw err;
    }
    await answered;
  }

  private setUp(up: boolean): void {
    if (up === this.up || this.closed) return;
    this.up = up;
    this.onState(up);
    if (!up) return;
    for (const l of [...this.reconnectListeners]) {
      try {
        l();
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** See `EventBus.close`: the other nodes hear that this one watches nothing any more. */
  async close(): Promise<void> {
    if (this.pub.status === 'ready' && this.up) {
      const bye: Announcement = { n: this.nodeId, all: [] };
      await this.pub.publish(this.prefix + INTEREST, JSON.stringify(bye)).catch(() => {});
    }
    this.closed = true;
    this.listeners.clear();
    this.watched.clear();
    this.reconnectListeners.clear();
    this.awaiting?.done();
    // A connection that is down only stops retrying (QUIT would fail at once without the offline queue).
    const end = (r: Redis): Promise<unknown> =>
      r.status === 'ready' ? r.quit().catch(() => r.disconnect()) : Promise.resolve(r.disconnect());
    await Promise.allSettled([end(this.sub), end(this.pub)]);
  }

  private deliver(fullChannel: string, text: string): void {
    if (!fullChannel.startsWith(this.prefix)) return;
    const channel = fullChannel.slice(this.prefix.length);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (channel === INTEREST) return this.heardAnnouncement(parsed);
    if (channel === nodeChannel(this.nodeId)) return this.heardDirect(parsed);
    const set = this.listeners.get(channel);
    if (!set || !isEnvelope(parsed) || parsed.n === this.nodeId) return;
    call(set, parsed.m);
  }

  /** Another node's interest changed; a `hello` is answered with the whole of this node's. */
  private heardAnnouncement(a: unknown): void {
    if (!isAnnouncement(a) || a.n === this.nodeId) return;
    if (a.all !== undefined) this.peers.reset(a.n, a.all);
    if (a.w !== undefined) this.peers.watch(a.n, a.w);
    if (a.u !== undefined) this.peers.unwatch(a.n, a.u);
    if (a.hello && this.pub.status === 'ready') {
      const answer: Direct = { n: this.nodeId, i: [...this.watched.keys()] };
      this.pub.publish(this.prefix + nodeChannel(a.n), JSON.stringify(answer)).catch(() => {});
    }
  }

  /** A message of a topic watched here, or a node's answer to this node's `hello`. */
  private heardDirect(d: unknown): void {
    if (typeof d !== 'object' || d === null) return;
    const { t, m, n, i } = d as Direct;
    if (typeof n === 'string' && isStrings(i)) {
      this.peers.reset(n, i);
      const awaiting = this.awaiting;
      if (awaiting?.nodes.delete(n) && awaiting.nodes.size === 0) awaiting.done();
      return;
    }
    if (typeof t !== 'string') return;
    const set = this.watched.get(t);
    if (set) return call(set, m);
    // Sent before the sender heard that this node stopped watching it (or never did): tell it again.
    if (!this.toWatch.has(t)) {
      this.toUnwatch.add(t);
      this.scheduleFlush();
    }
  }
}

/** Calls every listener of `set` with `message`; a listener that throws does not stop the others. */
function call(set: Set<BusListener>, message: unknown): void {
  for (const l of [...set]) {
    try {
      l(message);
    } catch {
      // a listener's failure is its own
    }
  }
}
