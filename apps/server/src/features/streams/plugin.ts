/**
 * Plugin `streams`: decorates `app.streams` — the node's open NDJSON streams (ndjson.ts `StreamHub`: the cap
 * per client, the end of every stream at shutdown), the exports' reads, and the events streams' deliveries
 * of race invitations (`app.races.onInvitation`) and opened days (`app.daily.onOpened`) on every node
 * (player-events.ts). Before the server closes
 * (`preClose`, so Fastify's close does not wait on them) every open stream gets a `shutdown` end line.
 */
import fp from 'fastify-plugin';
import { StreamHub } from './ndjson.js';
import { PlayerEvents } from './player-events.js';
import { StreamsRepository } from './repository.js';

/** What plugin `streams` decorates the app with. */
export interface Streams {
  /** The open streams of this node. */
  readonly hub: StreamHub;
  /** The exports' reads. */
  readonly repository: StreamsRepository;
  /** The events streams' invitations and opened days, on every node (player-events.ts). */
  readonly events: PlayerEvents;
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
    const events = new PlayerEvents(app.bus);
    const stops = [
      app.races.onInvitation((invitation) => events.invite(invitation)),
      app.daily.onOpened((date) => events.opened(date)),
    ];
    app.decorate('streams', { hub, repository: new StreamsRepository(app.prisma), events });
    app.metrics.gauge('streams_open', 'NDJSON streams open on this node.', () => hub.size);
    app.addHook('preClose', (done) => {
      for (const stop of stops) stop();
      events.close();
      hub.closeAll();
      done();
    });
    return Promise.resolve();
  },
  {
    name: 'streams',
    fastify: '5.x',
    dependencies: ['config', 'db', 'bus', 'metrics', 'game-rooms', 'auth', 'pairing', 'races', 'daily'],
  },
);
