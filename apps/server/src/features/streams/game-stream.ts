/**
 * A game's NDJSON stream (GET /api/stream/games/:id): the socket's `state` frames of the game, as they are
 * committed on any node, one a line. It is a room subscriber like a socket (core/rooms: the same frames, built
 * by the one view function, and the same read rule of the game's kind), so a game played on node A streams on
 * node B through the bus.
 *
 * Without `since` it starts with the current state; with `since` = the version the reader holds, with an
 * `action` line for each logged action after it, then the first `state` newer than it. It ends with an `end`
 * line once a `state` shows the game won or resigned (a blocked game can still be undone: it goes on).
 */
import { GameStreamLineSchema, compactAction } from '@klondike/protocol';
import type { Actor, GameRooms, Subscriber } from '../../core/rooms/game-rooms.js';
import { ApiError } from '../../infra/errors.js';
import type { NdjsonStream } from './ndjson.js';

/** What a game's stream needs of the rooms. */
export type StreamRooms = Pick<GameRooms, 'subscribe' | 'unsubscribe' | 'actionsSince'>;

/** The fields of a `state` frame the stream reads to order and end itself. */
interface FrameHead {
  readonly version: number;
  readonly status: string | undefined;
}

function headOf(text: string): FrameHead | null {
  try {
    const f = JSON.parse(text) as { type?: unknown; version?: unknown; view?: { status?: unknown } };
    if (f.type !== 'state' || typeof f.version !== 'number') return null;
    return { version: f.version, status: typeof f.view?.status === 'string' ? f.view.status : undefined };
  } catch {
    return null;
  }
}

/** The `state` frame as a stream line: the socket frame without the writer's `requestId`. */
function stateLine(text: string): string {
  const f = JSON.parse(text) as Record<string, unknown>;
  if (!('requestId' in f)) return text;
  delete f.requestId;
  return JSON.stringify(f);
}

/**
 * The subscriber of one game stream: it holds frames until the stream is started (the catch-up written), then
 * writes each newer `state` once, in version order, and ends the stream at the game's end.
 */
export class GameStreamSubscriber implements Subscriber {
  private held: string[] | null = [];
  private last: number;
  private stream: NdjsonStream | null = null;
  private ended = false;

  /** `since`: the version the reader holds (-1: none). */
  constructor(
    private readonly gameId: string,
    since: number,
    private readonly onEnd: () => void,
  ) {
    this.last = since;
  }

  /** See `Subscriber.send`: a `state` frame's JSON text. */
  send(frame: string): void {
    if (this.held !== null) this.held.push(frame);
    else this.write(frame);
  }

  /** The newest version the frames held so far show (-1: none). */
  get heldVersion(): number {
    let v = -1;
    for (const f of this.held ?? []) v = Math.max(v, headOf(f)?.version ?? -1);
    return v;
  }

  /** Writes `catchUp` lines, then the frames held, then every later one as it comes. */
  start(stream: NdjsonStream, catchUp: readonly string[]): void {
    this.stream = stream;
    for (const l of catchUp) stream.line(l);
    const held = this.held ?? [];
    this.held = null;
    for (const f of held) this.write(f);
  }

  private write(frame: string): void {
    const stream = this.stream;
    if (stream === null || this.ended) return;
    const head = headOf(frame);
    if (head === null) return;
    // An old or repeated frame (another node's copy) is not written again; but a reader already up to date
    // with a game that has ended still gets its end.
    if (head.version > this.last) {
      this.last = head.version;
      stream.line(stateLine(frame));
    } else if (head.version < this.last) return;
    if (head.status === 'won' || head.status === 'resigned') {
      this.ended = true;
      stream.end(
        JSON.stringify(
          GameStreamLineSchema.parse({
            type: 'end',
            reason: 'game-over',
            gameId: this.gameId,
            version: head.version,
          }),
        ),
      );
      this.onEnd();
    }
  }
}

/**
 * Subscribes a new stream subscriber to game `id` for `actor` and reads the catch-up after `since`; the
 * caller then starts the response and calls `start`. Errors (before anything is written): `not-found`;
 * `bad-request` when `since` is ahead of the game; the kind's read refusals.
 */
export async function openGameStream(
  rooms: StreamRooms,
  id: string,
  since: number | undefined,
  actor: Actor,
): Promise<{ subscriber: GameStreamSubscriber; catchUp: string[]; close: () => void }> {
  const close = (): void => rooms.unsubscribe(id, subscriber);
  const subscriber = new GameStreamSubscriber(id, since ?? -1, close);
  await rooms.subscribe(id, subscriber, actor);
  try {
    const current = subscriber.heldVersion;
    if (since !== undefined && since > current)
      throw new ApiError('bad-request', `since ${since} is ahead of the game (version ${current})`);
    const catchUp: string[] = [];
    if (since !== undefined && since < current) {
      const { actions } = await rooms.actionsSince(id, since, actor);
      for (const a of actions) {
        if (a.version > current) break; // the live frames carry the rest
        catchUp.push(
          JSON.stringify(
            GameStreamLineSchema.parse({
              type: 'action',
              gameId: id,
              version: a.version,
              action: a.action,
              ...(a.move !== undefined ? { move: a.move } : {}),
              notation: compactAction(a.action, a.move),
            }),
          ),
        );
      }
    }
    return { subscriber, catchUp, close };
  } catch (err) {
    close();
    throw err;
  }
}
