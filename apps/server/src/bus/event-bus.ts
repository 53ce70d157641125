/**
 * The event bus between server nodes: what one node publishes on a channel reaches every OTHER node
 * listening to that channel. Channels in use: `game:<id>` (a game's committed `state` frames, so sockets on
 * any node follow a game whichever node wrote it) and `race:<code>` (a race room's events).
 *
 * Two implementations: `SingleNodeBus` (the default, no `REDIS_URL`: there is no other node, so nothing is
 * delivered) and `RedisBus` (Redis pub/sub through ioredis: one connection publishes, one listens). A
 * message carries the publishing node's id, and a node never hears its own messages: it has already
 * delivered them to its own listeners.
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

/**
 * Redis pub/sub. `url` is a Redis URL (`redis://127.0.0.1:6379`); `prefix` namespaces the channels (several
 * services or test runs on one Redis). Messages published while Redis is away are lost (pub/sub keeps
 * nothing): a socket that misses a frame sees a version gap and resyncs through `subscribe`.
 * `onError` hears connection errors (ioredis reconnects by itself).
 */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  readonly nodeId = newNodeId();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, Set<BusListener>>();

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: unknown) => void,
  ) {
    const options = { maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (channel: string, text: string) => this.deliver(channel, text));
  }

  /** The connection that publishes, for other shared state in Redis (the rate limits' counters). */
  get commands(): Redis {
    return this.pub;
  }

  /** Resolves once both connections are ready (start-up), rejects after `timeoutMs`. */
  async ready(timeoutMs = 10_000): Promise<void> {
    const one = (r: Redis) =>
      r.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((res, rej) => {
            const t = setTimeout(() => rej(new Error('redis: not ready in time')), timeoutMs);
            r.once('ready', () => {
              clearTimeout(t);
              res();
            });
          });
    await Promise.all([one(this.pub), one(this.sub)]);
  }

  /** See `EventBus.publish`. */
  publish(channel: string, message: unknown): void {
    const text = JSON.stringify({ n: this.nodeId, m: message } satisfies Envelope);
    this.pub.publish(this.prefix + channel, text).catch(() => {
      // Redis away: the message is lost; the version rule makes receivers resync.
    });
  }

  /** See `EventBus.subscribe`. */
  subscribe(channel: string, listener: BusListener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      this.sub.subscribe(this.prefix + channel).catch(() => {});
    }
    set.add(listener);
    return () => {
      const s = this.listeners.get(channel);
      if (!s?.delete(listener) || s.size > 0) return;
      this.listeners.delete(channel);
      this.sub.unsubscribe(this.prefix + channel).catch(() => {});
    };
  }

  /** See `EventBus.close`. */
  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
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
