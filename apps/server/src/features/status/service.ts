/**
 * The status page's service (issue 58): reads the node's figures, judges them (assess.ts) and adds the
 * recorded incidents. An answer is kept for CACHE_MS, so that a crowd refreshing the page costs the
 * database one query a few seconds at most.
 */
import type { Incident, StatusResponse } from '@klondike/protocol';
import { type StatusFigures, assessStatus } from './assess.js';
import type { StatusRepository } from './repository.js';

/** How long one answer is served again, ms. */
export const CACHE_MS = 2000;
/** How long the database may take to answer the status's probe, ms. */
export const DATABASE_PROBE_MS = 1000;
/** `overloaded` refusals within about this long make moves degraded, ms. */
export const REFUSAL_WINDOW_MS = 60_000;
/** Most incidents listed. */
export const MAX_INCIDENTS = 10;
/** Resolved incidents older than this are no longer listed, ms (14 days). */
export const RESOLVED_SHOWN_MS = 14 * 24 * 3600 * 1000;

/** The figures of this node the service reads (the rest it asks the database). */
export type NodeFigures = Omit<StatusFigures, 'database' | 'recentRefusals'> & {
  /** `overloaded` refusals since start. */
  readonly refused: number;
};

/** What the service needs. */
export interface StatusServiceOptions {
  readonly repository: StatusRepository;
  readonly now: () => number;
  readonly figures: () => NodeFigures;
  /** NODE_HEARTBEAT_MS: a node whose heartbeat is older than three of these is gone. */
  readonly heartbeatMs: number;
}

/** Waits for `p` at most `ms`; false when it rejected or took longer. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The open incidents and the recent resolved ones, newest first, at most MAX_INCIDENTS. */
export function shownIncidents(all: readonly Incident[], now: number): Incident[] {
  const open = all.filter((i) => i.resolvedAt === null);
  const resolved = all.filter(
    (i) => i.resolvedAt !== null && now - Date.parse(i.resolvedAt) <= RESOLVED_SHOWN_MS,
  );
  return [...open, ...resolved].slice(0, MAX_INCIDENTS);
}

/** The status page's answers. */
export class StatusService {
  private cached: { readonly at: number; readonly answer: Promise<StatusResponse> } | null = null;
  /** The refusal count at the start of the current window. */
  private window: { at: number; refused: number } | null = null;

  constructor(private readonly opts: StatusServiceOptions) {}

  /** The incidents' rows (the operator's routes write them). */
  get repository(): StatusRepository {
    return this.opts.repository;
  }

  /** The status now (or as read less than CACHE_MS ago). Never rejects: a failed read is a `down` part. */
  status(): Promise<StatusResponse> {
    const now = this.opts.now();
    if (this.cached !== null && now - this.cached.at < CACHE_MS) return this.cached.answer;
    const answer = this.read(now);
    this.cached = { at: now, answer };
    return answer;
  }

  /** `overloaded` refusals in the last REFUSAL_WINDOW_MS or so. */
  private recentRefusals(now: number, refused: number): number {
    if (this.window === null) this.window = { at: now, refused };
    const recent = refused - this.window.refused;
    if (now - this.window.at >= REFUSAL_WINDOW_MS) this.window = { at: now, refused };
    return recent;
  }

  private async read(now: number): Promise<StatusResponse> {
    const { repository } = this.opts;
    const { refused, ...node } = this.opts.figures();
    const database = await within(repository.ping(), DATABASE_PROBE_MS);
    const figures: StatusFigures = { ...node, database, recentRefusals: this.recentRefusals(now, refused) };
    const since = new Date(now - 3 * this.opts.heartbeatMs);
    const [nodes, incidents] = database
      ? await Promise.all([
          node.clustered ? repository.liveNodes(since).catch(() => 0) : Promise.resolve(1),
          repository.incidents().catch(() => []),
        ])
      : [node.clustered ? 0 : 1, []];
    return {
      ...assessStatus(figures),
      nodes,
      incidents: shownIncidents(incidents, now),
      checkedAt: new Date(now).toISOString(),
    };
  }
}
