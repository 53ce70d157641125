/**
 * The public status page's schemas (issue 58; docs/operations.md "Status page"): `GET /api/status` says
 * whether each part of the service is up, degraded or down, with a short reason, from the same figures as
 * the metrics, and lists the last incidents the operator recorded (`pnpm incident add|resolve|list`).
 */
import { z } from 'zod';

/** A part's health: `up`, `degraded` (works, slower or partly), `down` (does not work). */
export const StatusLevelSchema = z.enum(['up', 'degraded', 'down']);
export type StatusLevel = z.infer<typeof StatusLevelSchema>;

/** The parts of the service the status page names. */
export const STATUS_PARTS = ['moves', 'daily', 'races', 'solver', 'cluster'] as const;
export const StatusPartNameSchema = z.enum(STATUS_PARTS);
export type StatusPartName = z.infer<typeof StatusPartNameSchema>;

/**
 * Why a part is not up, as a code the page translates (`null` while up): `database` (the database is
 * away), `commit-queue` (moves wait to be stored), `overloaded` (moves were refused as the queue was full),
 * `daily-pending` (today's dailies are not stored yet), `redis` (the nodes cannot reach Redis: events
 * between nodes pause), `solver-failed` (solver threads do not start), `solver-busy` (its queue is full).
 */
export const StatusReasonSchema = z
  .enum(['database', 'commit-queue', 'overloaded', 'daily-pending', 'redis', 'solver-failed', 'solver-busy'])
  .nullable();
export type StatusReason = z.infer<typeof StatusReasonSchema>;

/** One part's health and why. */
export const StatusPartSchema = z.object({
  level: StatusLevelSchema,
  reason: StatusReasonSchema,
});
export type StatusPart = z.infer<typeof StatusPartSchema>;

/** An incident's impact, as the operator recorded it. */
export const IncidentImpactSchema = z.enum(['minor', 'major']);

/** An incident the operator recorded: what happened, from when, until when (null: still open). */
export const IncidentSchema = z
  .object({
    id: z.string(),
    title: z.string().min(1).max(200),
    /** What players should know (optional, plain text). */
    details: z.string().max(2000).nullable(),
    impact: IncidentImpactSchema,
    /** When it began, ISO-8601. */
    startedAt: z.string(),
    /** When it was resolved, ISO-8601, or null while open. */
    resolvedAt: z.string().nullable(),
  })
  .meta({ id: 'Incident' });
export type Incident = z.infer<typeof IncidentSchema>;

/** POST /api/status/incidents body (the operator's route): a new open incident. */
export const IncidentBodySchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    details: z.string().max(2000).optional(),
    impact: IncidentImpactSchema.default('minor'),
  })
  .strict();
export type IncidentBody = z.infer<typeof IncidentBodySchema>;

/** GET /api/status: the service's health by part, the worst of them, and the last incidents (newest first). */
export const StatusResponseSchema = z
  .object({
    /** The worst level of the parts. */
    status: StatusLevelSchema,
    parts: z.object({
      moves: StatusPartSchema,
      daily: StatusPartSchema,
      races: StatusPartSchema,
      solver: StatusPartSchema,
      cluster: StatusPartSchema,
    }),
    /** Nodes seen alive in the last few heartbeats (1 for a node alone). */
    nodes: z.number().int().min(0),
    /** Open incidents, then the last resolved ones (at most 10 in all), newest first. */
    incidents: z.array(IncidentSchema),
    /** When the figures were read, ISO-8601. */
    checkedAt: z.string(),
  })
  .meta({ id: 'ServiceStatus' });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
