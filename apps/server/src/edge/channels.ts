/**
 * The app's socket channels, built from its decorations in one place: the core games' channel and one per
 * feature that has frames on the socket. The transport (edge/socket.ts) checks the list at start-up.
 */
import type { FastifyInstance } from 'fastify';
import type { SocketChannel } from '../core/feature-module.js';
import { gameChannel } from '../core/games/channel.js';
import { arenaChannel } from '../features/arenas/channel.js';
import { dailyChannel } from '../features/daily/channel.js';
import { pairingChannel } from '../features/pairing/channel.js';
import { raceChannel } from '../features/races/channel.js';

/** The channels of `app` (its plugins ready: rooms, daily, races, pairing, arenas and config decorated). */
export function appChannels(app: FastifyInstance): SocketChannel[] {
  return [
    gameChannel(app.rooms, { maxSubscriptions: app.config.wsMaxSubscriptions }),
    dailyChannel(app.daily),
    raceChannel(app.races, { lookups: app.config.raceRateMax }),
    pairingChannel(app.pairing),
    arenaChannel(app.arenas),
  ];
}
