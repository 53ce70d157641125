/**
 * Request and response examples of the main operations (a game, a move, a daily, a race), by operationId,
 * put into the OpenAPI document by openapi-document.ts. Redocly's lint (`pnpm lint`) checks each against its
 * schema (`no-invalid-media-type-examples`).
 */

/** Named examples of one media type (`{name: {summary, value}}`, OpenAPI's Example Object map). */
export type NamedExamples = Record<string, { summary?: string; value: unknown }>;

/** The examples of one operation: its JSON request body and its JSON answers by status. */
export interface OperationExamples {
  readonly request?: NamedExamples;
  readonly responses?: Readonly<Record<string, NamedExamples>>;
}

/** Examples by operationId. */
export const API_EXAMPLES: Readonly<Record<string, OperationExamples>> = {};
