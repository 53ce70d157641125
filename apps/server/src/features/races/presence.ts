/**
 * Presence in a race room (races/service.ts, "Presence"): the transactions that record how many race
 * sockets this node holds for a viewer, and that take away the sockets of nodes whose heartbeat stopped. A
 * racer without a socket on any live node is away (`forfeitAt` set while the race runs); back in time they
 * carry on. Both run inside the room's locked transaction (RaceService.mutate); `readDeadNodes` finds the
 * rooms the second is for.
 */
import type { PrismaClient } from '../../generated/prisma/client.js';
import { type Change, type RaceRow, type Tx, unchanged } from './repository.js';
import { SPECTATORS } from './snapshot.js';

/** What `presenceChange` records: `sockets` of `viewer` (a racer's id, or SPECTATORS) on node `nodeId`. */
export interface PresenceFact {
  readonly nodeId: string;
  readonly viewer: string;
  readonly sockets: number;
  /** The server clock, ms since the epoch. */
  readonly now: () => number;
  /** Time away after which a racer forfeits a running race, ms. */
  readonly awayForfeitMs: number;
}

/**
 * Stores this node's socket count of a viewer in the room, records a racer's first race socket in the room
 * (`connectedAt`: such a racer is rated, ranking.ts `ratedRacer`), and marks a racer here again (no forfeit) or away
 * (when no other node holds a socket of theirs). Result: whether the room changed (false once finished).
 */
export async function presenceChange(tx: Tx, race: RaceRow, o: PresenceFact): Promise<Change<boolean>> {
  if (race.status === 'finished') return unchanged(false);
  const { nodeId, viewer, sockets } = o;
  const code = race.code;
  const key = { raceCode_nodeId_viewer: { raceCode: code, nodeId, viewer } };
  if (sockets > 0)
    await tx.racePresence.upsert({
      where: key,
      create: { raceCode: code, nodeId, viewer, sockets },
      update: { sockets },
    });
  else await tx.racePresence.deleteMany({ where: { raceCode: code, nodeId, viewer } });
  const racer = viewer === SPECTATORS ? undefined : race.racers.find((r) => r.playerId === viewer);
  let due = false;
  if (racer && sockets > 0 && (racer.away || racer.forfeitAt !== null || racer.connectedAt === null)) {
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: code, playerId: viewer } },
      data: { away: false, forfeitAt: null, connectedAt: racer.connectedAt ?? new Date(o.now()) },
    });
    due = racer.forfeitAt !== null;
  } else if (racer && sockets === 0 && !racer.away) {
    const elsewhere = race.presence.some((p) => p.viewer === viewer && p.nodeId !== nodeId);
    if (!elsewhere) {
      const forfeits = race.status === 'running' && !racer.forfeited;
      await tx.raceRacer.update({
        where: { raceCode_playerId: { raceCode: code, playerId: viewer } },
        data: { away: true, forfeitAt: forfeits ? new Date(o.now() + o.awayForfeitMs) : null },
      });
      due = forfeits;
    }
  }
  return { result: true, changed: true, due };
}

/** The nodes alive now, and when each dead node last beat (ms). */
export interface DeadNodes {
  readonly alive: ReadonlySet<string>;
  readonly lastSeen: ReadonlyMap<string, number>;
  /** The server clock when the nodes were read, ms. */
  readonly now: number;
  readonly awayForfeitMs: number;
}

/**
 * Takes the presence rows of dead nodes out of the room; their racers without a socket on a live node are
 * away since that node's last beat.
 */
export async function deadNodesChange(tx: Tx, race: RaceRow, o: DeadNodes): Promise<Change<null>> {
  const gone = race.presence.filter((p) => !o.alive.has(p.nodeId));
  if (gone.length === 0) return unchanged(null);
  await tx.racePresence.deleteMany({ where: { raceCode: race.code, nodeId: { notIn: [...o.alive] } } });
  let due = false;
  for (const racer of race.racers) {
    const had = gone.filter((p) => p.viewer === racer.playerId);
    if (had.length === 0 || racer.away) continue;
    if (race.presence.some((p) => p.viewer === racer.playerId && o.alive.has(p.nodeId))) continue;
    // Away since the last beat of the node that held their socket.
    const since = Math.max(...had.map((p) => o.lastSeen.get(p.nodeId) ?? o.now));
    const forfeits = race.status === 'running' && !racer.forfeited;
    await tx.raceRacer.update({
      where: { raceCode_playerId: { raceCode: race.code, playerId: racer.playerId } },
      data: { away: true, forfeitAt: forfeits ? new Date(since + o.awayForfeitMs) : null },
    });
    due ||= forfeits;
  }
  return { result: null, changed: true, due };
}

/** Which nodes `readDeadNodes` counts alive: this one, and (several nodes) those that beat lately. */
export interface NodeLiveness {
  readonly nodeId: string;
  /** Several nodes share the database; false: this node is the only one alive. */
  readonly multiNode: boolean;
  /** How old a node's heartbeat may be before its race sockets count as gone, ms. */
  readonly nodeDeadMs: number;
  readonly awayForfeitMs: number;
}

/**
 * The nodes alive at server time `now` (ms) and the rooms holding presence rows of other nodes (several
 * nodes: those whose heartbeat stopped; one node: any other, a previous run's).
 */
export async function readDeadNodes(
  prisma: PrismaClient,
  o: NodeLiveness,
  now: number,
): Promise<{ nodes: DeadNodes; rooms: Set<string> }> {
  const beats = o.multiNode ? await prisma.serverNode.findMany({ select: { id: true, seenAt: true } }) : [];
  const alive = new Set([o.nodeId]);
  const lastSeen = new Map<string, number>();
  for (const n of beats) {
    if (n.seenAt.getTime() >= now - o.nodeDeadMs) alive.add(n.id);
    else lastSeen.set(n.id, n.seenAt.getTime());
  }
  const stale = await prisma.racePresence.findMany({
    where: { nodeId: { notIn: [...alive] } },
    select: { raceCode: true, nodeId: true },
  });
  return {
    nodes: { alive, lastSeen, now, awayForfeitMs: o.awayForfeitMs },
    rooms: new Set(stale.map((s) => s.raceCode)),
  };
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
