/**
 * Presence in a race room (races/service.ts, "Presence"): this node's presence writes, queued per room, and
 * the nodes whose heartbeat stopped. The room's side of both — a racer without a socket on any live node is
 * away (`forfeitAt` set while the race runs), back in time they carry on — is decided in transitions.ts
 * (events `presence` and `dead-nodes`).
 */
import type { RaceRepository } from './repository.js';

/** Which nodes `readDeadNodes` counts alive: this one, and (several nodes) those that beat lately. */
export interface NodeLiveness {
  readonly nodeId: string;
  /** Several nodes share the database; false: this node is the only one alive. */
  readonly multiNode: boolean;
  /** How old a node's heartbeat may be before its race sockets count as gone, ms. */
  readonly nodeDeadMs: number;
}

/** The nodes alive, when each dead node last beat (ms), and when that was read (ms). */
export interface DeadNodes {
  readonly alive: ReadonlySet<string>;
  readonly lastSeen: ReadonlyMap<string, number>;
  readonly readAt: number;
}

/**
 * The nodes alive at server time `now` (ms) and the rooms holding presence rows of other nodes (several
 * nodes: those whose heartbeat stopped; one node: any other, a previous run's).
 */
export async function readDeadNodes(
  repository: RaceRepository,
  o: NodeLiveness,
  now: number,
): Promise<{ nodes: DeadNodes; rooms: Set<string> }> {
  const beats = o.multiNode ? await repository.heartbeats() : [];
  const alive = new Set([o.nodeId]);
  const lastSeen = new Map<string, number>();
  for (const n of beats) {
    if (n.seenAt.getTime() >= now - o.nodeDeadMs) alive.add(n.id);
    else lastSeen.set(n.id, n.seenAt.getTime());
  }
  return { nodes: { alive, lastSeen, readAt: now }, rooms: await repository.roomsWithPresenceOutside(alive) };
}

/** This node's presence writes, each room's run one after another in the order asked. */
export class PresenceQueue {
  /** Tail of each room's writes. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `write` after the earlier writes of room `code`; returns its result. */
  queue<T>(code: string, write: () => Promise<T>): Promise<T> {
    const run = (this.tails.get(code) ?? Promise.resolve()).then(write);
    this.tails.set(
      code,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    return run;
  }

  /** Forgets room `code`'s tail (the room left this node). */
  forget(code: string): void {
    this.tails.delete(code);
  }
}
