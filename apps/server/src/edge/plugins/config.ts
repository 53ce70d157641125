/** Plugin `config`: decorates the instance with the server configuration and the server clock. */
import fp from 'fastify-plugin';
import type { AppConfig } from '../../infra/config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration (plugin `config`). */
    config: AppConfig;
    /** The server clock, ms since the epoch (plugin `config`; injectable for tests). */
    now: () => number;
  }
}

/** Options: the already-resolved configuration and, for tests, a clock. */
export interface ConfigPluginOptions {
  readonly config: AppConfig;
  /** Server clock in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** Decorates `app.config` and `app.now`. */
export const configPlugin = fp<ConfigPluginOptions>(
  (app, opts) => {
    app.decorate('config', opts.config);
    app.decorate('now', opts.now ?? Date.now);
    return Promise.resolve();
  },
  { name: 'config', fastify: '5.x' },
);
