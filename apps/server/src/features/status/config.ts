/** The status page's setting (STATUS_OPERATOR_TOKEN): its slice of `AppConfig`. */
import { z } from 'zod';
import { emptyToUndefined } from '../../infra/config.js';

/** The status page's settings. */
export interface StatusConfig {
  /**
   * The operator's token of the incident routes (`POST /api/status/incidents`, header `X-Operator-Token`;
   * env STATUS_OPERATOR_TOKEN, at least 32 characters); undefined (default) = no such route (404): incidents
   * are then recorded with the `incident` command only.
   */
  readonly statusOperatorToken: string | undefined;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the status page's settings join AppConfig
  interface AppConfig extends StatusConfig {}
}

/** The status page's slice of the configuration. */
export const STATUS_CONFIG = z
  .object({
    STATUS_OPERATOR_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().min(32, 'STATUS_OPERATOR_TOKEN must be at least 32 characters').optional(),
    ),
  })
  .transform((e): StatusConfig => ({ statusOperatorToken: e.STATUS_OPERATOR_TOKEN }));
