/**
 * The status page's rows: the incidents the operator records, kept in the `Setting` key/value table under
 * `incident:<id>` (a JSON value: title, details, impact, startedAt, resolvedAt), and the nodes' heartbeats
 * (`ServerNode`, written by the races' heartbeat when several nodes share Redis).
 */
import { randomBytes } from 'node:crypto';
import type { Incident } from '@klondike/protocol';
import type { PrismaClient } from '../../generated/prisma/client.js';

/** The `Setting` key prefix of incidents. */
export const INCIDENT_KEY_PREFIX = 'incident:';

/** What the operator gives for a new incident. */
export interface NewIncident {
  readonly title: string;
  readonly details: string | null;
  readonly impact: Incident['impact'];
}

/** The stored value of an incident (its id is in the key). */
type StoredIncident = Omit<Incident, 'id'>;

/** The incidents and the heartbeats. */
export class StatusRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Records a new open incident begun at `at`; returns it. */
  async addIncident(incident: NewIncident, at: Date): Promise<Incident> {
    // Ids sort by time: the start in ms (base 36, fixed width), then a random tail.
    const id = `${at.getTime().toString(36).padStart(9, '0')}-${randomBytes(3).toString('hex')}`;
    const stored: StoredIncident = { ...incident, startedAt: at.toISOString(), resolvedAt: null };
    await this.prisma.setting.create({
      data: { key: INCIDENT_KEY_PREFIX + id, value: JSON.stringify(stored) },
    });
    return { id, ...stored };
  }

  /** Marks incident `id` resolved at `at`; returns it, or null when there is no such incident. */
  async resolveIncident(id: string, at: Date): Promise<Incident | null> {
    const row = await this.prisma.setting.findUnique({ where: { key: INCIDENT_KEY_PREFIX + id } });
    if (row === null) return null;
    const stored = { ...(JSON.parse(row.value) as StoredIncident) };
    stored.resolvedAt ??= at.toISOString();
    await this.prisma.setting.update({ where: { key: row.key }, data: { value: JSON.stringify(stored) } });
    return { id, ...stored };
  }

  /** Every incident, newest first. */
  async incidents(): Promise<Incident[]> {
    const rows = await this.prisma.setting.findMany({
      where: { key: { startsWith: INCIDENT_KEY_PREFIX } },
      orderBy: { key: 'desc' },
    });
    return rows.map((r) => ({
      id: r.key.slice(INCIDENT_KEY_PREFIX.length),
      ...(JSON.parse(r.value) as StoredIncident),
    }));
  }

  /** Nodes whose heartbeat is at `since` or later. */
  liveNodes(since: Date): Promise<number> {
    return this.prisma.serverNode.count({ where: { seenAt: { gte: since } } });
  }

  /** Whether the database answers a trivial query. Errors: rejects when it does not. */
  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }
}
