/**
 * The app's socket channels: the one each module declares (`FeatureModule.channel`, built from the app's
 * decorations once its plugins are ready), in the modules' order (edge/modules.ts). The transport
 * (edge/socket.ts) checks the list at start-up.
 */
import type { FastifyInstance } from 'fastify';
import type { RequiredScope } from '@klondike/protocol';
import type { ClientFrameType, SocketChannel } from '../core/feature-module.js';
import { MODULES } from './modules.js';

/** The channels of `app` (its plugins ready). */
export function appChannels(app: FastifyInstance): SocketChannel[] {
  return MODULES.flatMap((module) => (module.channel ? [module.channel(app)] : []));
}

/**
 * The scope each client frame type needs from a personal access token, as the modules document it
 * (`ClientFrameDoc.scope`); `auth` and `ping` need none.
 */
export function appFrameScopes(): Map<ClientFrameType, RequiredScope | null> {
  const scopes = new Map<ClientFrameType, RequiredScope | null>([
    ['auth', null],
    ['ping', null],
  ]);
  for (const module of MODULES)
    for (const [type, doc] of Object.entries(module.frames?.client ?? {}))
      if (doc !== undefined) scopes.set(type as ClientFrameType, doc.scope);
  return scopes;
}
