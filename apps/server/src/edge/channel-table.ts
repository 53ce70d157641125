/**
 * The socket transport's table of channels: which channel handles each client frame type, checked once at
 * start-up so that a frame type is never handled twice or never at all.
 */
import { ClientFrameSchema } from '@klondike/protocol';
import type { ClientFrameType, SocketChannel } from '../core/feature-module.js';

/** The frame types the transport answers itself (edge/socket.ts); every other one belongs to a channel. */
export const TRANSPORT_FRAMES: readonly ClientFrameType[] = ['auth', 'ping'];

/** Every client frame type of protocol's ClientFrameSchema. */
export const CLIENT_FRAME_TYPES: readonly ClientFrameType[] = ClientFrameSchema.options.map(
  (o) => o.shape.type.value,
);

/** The channels of a transport, in order, and the channel of each client frame type. */
export interface ChannelTable {
  readonly channels: readonly SocketChannel[];
  readonly byFrame: ReadonlyMap<ClientFrameType, SocketChannel>;
}

/**
 * Checks `channels` and maps each frame type to its channel. Errors: throws one `Error` listing every
 * problem — two channels declaring the same frame type, a channel declaring `auth` or `ping` (the
 * transport's own), a ClientFrame type that no channel declares.
 */
export function channelTable(channels: readonly SocketChannel[]): ChannelTable {
  const byFrame = new Map<ClientFrameType, SocketChannel>();
  const problems: string[] = [];
  for (const channel of channels)
    for (const type of channel.frames) {
      const other = byFrame.get(type);
      if (TRANSPORT_FRAMES.includes(type))
        problems.push(`channel "${channel.name}" declares "${type}", which the transport answers itself`);
      else if (other !== undefined)
        problems.push(`frame type "${type}" is declared by channels "${other.name}" and "${channel.name}"`);
      else byFrame.set(type, channel);
    }
  const unclaimed = CLIENT_FRAME_TYPES.filter((t) => !TRANSPORT_FRAMES.includes(t) && !byFrame.has(t));
  if (unclaimed.length > 0)
    problems.push(`no channel declares frame type ${unclaimed.map((t) => `"${t}"`).join(', ')}`);
  if (problems.length > 0) throw new Error(`socket channels: ${problems.join('; ')}`);
  return { channels, byFrame };
}
