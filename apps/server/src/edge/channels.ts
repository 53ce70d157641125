/**
 * The app's socket channels: the one each module declares (`FeatureModule.channel`, built from the app's
 * decorations once its plugins are ready), in the modules' order (edge/modules.ts). The transport
 * (edge/socket.ts) checks the list at start-up.
 */
import type { FastifyInstance } from 'fastify';
import type { SocketChannel } from '../core/feature-module.js';
import { MODULES } from './modules.js';

/** The channels of `app` (its plugins ready). */
export function appChannels(app: FastifyInstance): SocketChannel[] {
  return MODULES.flatMap((module) => (module.channel ? [module.channel(app)] : []));
}
