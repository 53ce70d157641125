/**
 * A stand-in for the socket transport's side of a connection (`ChannelConnection`), for testing a socket
 * channel without Fastify or a socket: it records every frame sent to it, parsed.
 */
import type { ServerFrame } from '@klondike/protocol';
import type { ChannelConnection } from '../../src/core/feature-module.js';

/** A `ChannelConnection` that records its frames; `playerId` and `closed` are set by the test. */
export class FakeConnection implements ChannelConnection {
  /** Every frame sent, in order (serialised ones parsed back). */
  readonly frames: ServerFrame[] = [];
  playerId: string | null = null;
  closed = false;

  /** `playerId`: the player the connection is authed as, or null. */
  constructor(playerId: string | null = null) {
    this.playerId = playerId;
  }

  /** Records a serialised frame. */
  send(frame: string): void {
    this.frames.push(JSON.parse(frame) as ServerFrame);
  }

  /** Records a frame. */
  sendFrame(frame: ServerFrame): void {
    this.frames.push(frame);
  }
}
