/** Plugin `config`: decorates the instance with the server configuration. */
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.js';
import '../types.js';

/** Options: the already-resolved configuration. */
export interface ConfigPluginOptions {
  readonly config: AppConfig;
}

/** Decorates `app.config`. */
export const configPlugin = fp<ConfigPluginOptions>(
  async (app, opts) => {
    app.decorate('config', opts.config);
  },
  { name: 'config', fastify: '5.x' },
);
