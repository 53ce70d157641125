/** REST call of the status page (docs/operations.md "Status page"), through the typed client. */
import type { StatusResponse } from '@klondike/protocol';
import { callApi } from './api';

/** The service's health by part and the last incidents (GET /api/status; public, no token sent). */
export function getServiceStatus(): Promise<StatusResponse> {
  return callApi(
    (c) => c.getStatus(),
    (p) => p.StatusResponseSchema,
    null,
  );
}
