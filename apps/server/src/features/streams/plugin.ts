/**
 * Plugin `streams`: decorates `app.streams` — the node's open NDJSON streams (ndjson.ts `StreamHub`: the cap
 * per client, the end of every stream at shutdown) and the exports' reads. Before the server closes
 * (`preClose`, so Fastify's close does not wait on them) every open stream gets a `shutdown` end line.
 */
import fp from 'fastify-plugin';
import { StreamHub } from './ndjson.js';
import { StreamsRepository } from './repository.js';

/** What plugin `streams` decorates the app with. */
export interface Streams {
  /** The open streams of this node. */
  readonly hub: StreamHub;
  /** The exports' reads. */
  readonly repository: StreamsRepository;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The NDJSON streams (plugin `streams`). */
    streams: Streams;
  }
}

/** Registers the streams' hub. */
export const streamsPlugin = fp(
  (app) => {
    const hub = new StreamHub({
      keepAliveMs: app.config.streamKeepAliveMs,
      maxBufferBytes: app.config.streamMaxBufferBytes,
      maxPerClient: app.config.streamMaxPerClient,
    });
    app.decorate('streams', { hub, repository: new StreamsRepository(app.prisma) });
    app.metrics.gauge('streams_open', 'NDJSON streams open on this node.', () => hub.size);
    app.addHook('preClose', (done) => {
      hub.closeAll();
      done();
    });
    return Promise.resolve();
  },
  {
    name: 'streams',
    fastify: '5.x',
    dependencies: ['config', 'db', 'metrics', 'game-rooms', 'auth', 'pairing'],
  },
);
