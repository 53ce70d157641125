/**
 * The event bus between server nodes: what one node publishes on a channel reaches every OTHER node
 * listening to that channel. Channels in use: `game:<id>` (a game's committed `state` frames, so sockets on
 * any node follow a game whichever node wrote it), `race:<code>` (a race room's events), `tokens`
 * (revoked tokens: players/token-revocation.ts), and `player-events` / `daily-opened` (the events streams'
 * invitations and opened days: streams/player-events.ts).
 *
 * Two implementations: `SingleNodeBus` (the default, no `REDIS_URL`: there is no other node, so nothing is
 * delivered) and `RedisBus` (Redis pub/sub through ioredis: one connection publishes, one listens). A
 * message carries the publishing node's id, and a node never hears its own messages: it has already
 * delivered them to its own listeners.
 *
 * Redis is an accelerator, never a dependency of a move: the connections fail fast (no offline queue, a
 * command timeout), so while Redis is away a publish is dropped at once and nothing waits for it; the
 * receivers see a version gap and resync. When it returns, every channel is subscribed again and
 * `onReconnect` listeners hear it (the rooms re-read what they may have missed).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

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
  /** See `EventBus.connected`: nothing to be cut off from. */
  readonly connected = true;
  /** See `EventBus.onReconnect`: never away. */
  onReconnect(): () => void {
    return () => {};
  }
  /** See `EventBus.close`. */
  async close(): Promise<void> {}
}

/** Wire shape of a bus message: the sender and its message. */
interface Envelope {
  readonly n: string;
  readonly m: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'string' && 'm' in v;
}

/** How RedisBus's connections fail fast and come back (all in ms). */
export interface RedisBusTimings {
  /** A command without an answer this long fails (default 500). */
  readonly commandTimeoutMs?: number;
  /** A connection attempt gives up after this long (default 1000). */
  readonly connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts (default 1000). */
  readonly maxRetryDelayMs?: number;
}

/**
 * Redis pub/sub. `url` is a Redis URL (`redis://127.0.0.1:6379`); `prefix` namespaces the channels (several
 * services or test runs on one Redis). Both connections fail fast: no offline queue, so a command while
 * Redis is away fails at once, and a command Redis does not answer fails after `commandTimeoutMs`. Messages
 * published while Redis is away are lost (pub/sub keeps nothing): a socket that misses a frame sees a
 * version gap and resyncs through `subscribe`. ioredis reconnects by itself; on its return every channel
 * is subscribed again and the `onReconnect` listeners run. `onError` hears connection errors; `onState`
 * hears the bus going down (false) and coming back (true).
 */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  readonly nodeId = newNodeId();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, Set<BusListener>>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Whether the bus was up when last looked at (both connections ready and every channel subscribed). */
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
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: timings.commandTimeoutMs ?? 500,
      connectTimeout: timings.connectTimeoutMs ?? 1000,
      retryStrategy: (times: number) => Math.min(times * 100, maxDelay),
      // The channels are subscribed again by `resubscribe`, which knows the ones asked for while Redis was away.
      autoResubscribe: false,
      lazyConnect: false,
    };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    for (const r of [this.pub, this.sub]) {
      r.on('error', onError);
      r.on('close', () => this.setUp(false));
    }
    this.pub.on('ready', () => this.setUp(this.sub.status === 'ready'));
    this.sub.on('ready', () => {
      this.resubscribe().then(
        () => this.setUp(this.pub.status === 'ready' && this.sub.status === 'ready'),
        () => {}, // lost again: the next 'ready' tries once more
      );
    });
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
      // Redis away: `resubscribe` asks again when it returns.
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

  /** See `EventBus.onReconnect`. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => {
      this.reconnectListeners.delete(listener);
    };
  }

  /** Subscribes every channel listened to (a new connection starts with none). */
  private async resubscribe(): Promise<void> {
    const channels = [...this.listeners.keys()].map((c) => this.prefix + c);
    if (channels.length > 0) await this.sub.subscribe(...channels);
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

  /** See `EventBus.close`. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.reconnectListeners.clear();
    // A connection that is down only stops retrying (QUIT would fail at once without the offline queue).
    const end = (r: Redis): Promise<unknown> =>
      r.status === 'ready' ? r.quit().catch(() => r.disconnect()) : Promise.resolve(r.disconnect());
    await Promise.allSettled([end(this.sub), end(this.pub)]);
  }

  private deliver(fullChannel: string, text: string): void {
    if (!fullChannel.startsWith(this.prefix)) return;
    const set = this.listeners.get(fullChannel.slice(this.prefix.length));
    if (!set) return;
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      return;
    }
    if (!isEnvelope(envelope) || envelope.n === this.nodeId) return;
    for (const l of [...set]) {
      try {
        l(envelope.m);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
