/**
 * The operations settings (issue 58; docs/operations.md): the metrics listener (METRICS_PORT,
 * METRICS_HOST) and the graceful stop's deadline (SHUTDOWN_GRACE_MS). Their slice of `AppConfig`, composed
 * in edge/config.ts.
 */
import { z } from 'zod';
import { emptyToUndefined } from '../config.js';

/** The operations settings. */
export interface OperationsConfig {
  /**
   * Port of the Prometheus metrics listener, `/metrics` (env METRICS_PORT); undefined (default) = no
   * metrics listener and no metric collection on the move path. Never the public port.
   */
  readonly metricsPort: number | undefined;
  /** Interface the metrics listener binds (env METRICS_HOST, default 0.0.0.0: Prometheus scrapes from its container). */
  readonly metricsHost: string;
  /**
   * How long a stopping node (SIGTERM/SIGINT) may take to drain its writes and close, ms (env
   * SHUTDOWN_GRACE_MS, default 10000); past it the process exits with code 1. Compose's `stop_grace_period`
   * must be longer.
   */
  readonly shutdownGraceMs: number;
}

declare module '../config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the operations settings join AppConfig
  interface AppConfig extends OperationsConfig {}
}

/** The operations slice of the configuration. */
export const OPERATIONS_CONFIG = z
  .object({
    METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
    METRICS_HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('0.0.0.0')),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  })
  .transform((e): OperationsConfig => ({
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  }));
