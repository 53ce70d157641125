/**
 * The finishing pass over the OpenAPI document that @fastify/swagger builds from the routes (plugin
 * `swagger`): what holds for every operation alike is added here once, rather than in every route.
 *
 * - Every /api operation answers 401 `unknown-token` to an unknown or revoked token (plugin `auth`), and,
 *   unless its route turns the rate limit off, 429 `rate-limited` with the rate-limit headers; one that takes
 *   a body answers 413 `body-too-large` and 415 `bad-media-type` (app.ts): all are added where a
 *   route did not list them.
 * - 429 and 503 answers carry `Retry-After`; every answer of a rate-limited route carries the RateLimit
 *   headers (IETF draft-ietf-httpapi-ratelimit-headers, as @fastify/rate-limit sends them).
 * - Each answer's description says what its status means in this API (instead of "Default Response").
 * - A stream route's 2xx answer is `application/x-ndjson` only, its other answers JSON only.
 * - Request and response examples of the main operations (api-examples.ts) go into their media types.
 * - Components no operation reaches are dropped (the zod provider emits an input and an output variant of
 *   every registered schema; most are used one way only).
 */
import { API_EXAMPLES, type OperationExamples } from './api-examples.js';

/** Marks an operation whose route has `config.rateLimit: false` (set by the swagger plugin's transform). */
export const NO_RATE_LIMIT = 'x-klondike-no-rate-limit';

/** A media type object (only the fields this pass reads or writes). */
export interface MediaTypeObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

/** A response object. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
  content?: Record<string, MediaTypeObject>;
}

/** An operation object. */
export interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
  requestBody?: { content?: Record<string, MediaTypeObject> };
  [key: string]: unknown;
}

/** The parts of the OpenAPI document this pass reads or writes. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** What each status means in this API (the body is `{"error":{"code","message"}}` for every 4xx and 5xx). */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '400': '`bad-request`: the body, path or query does not match its schema',
  '401':
    '`unauthorized` (this needs a player token) or `unknown-token` (the token sent is unknown or revoked)',
  '403': '`forbidden` (not yours, or not yet public) or `deal-embargoed`',
  '404': '`not-found`',
  '409': '`stale-version` (with the current `version`), `conflict` or `not-subscribed`',
  '413': '`body-too-large`: the body is over 16 KiB; nothing was read or changed',
  '415': '`bad-media-type`: the body is not `application/json`; nothing was read or changed',
  '422': '`illegal-move`: `reason` names the rule, `version` is the current one; nothing changed',
  '429': '`rate-limited`: retry after `Retry-After` seconds',
  '503':
    'Unavailable for a moment: the service is busy or its database is away (`overloaded`, `solver-busy`, `commit-failed`, `unavailable`); nothing changed: retry after `Retry-After` seconds',
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const RETRY_AFTER = {
  description: 'Seconds to wait before sending the request again',
  schema: { type: 'integer', minimum: 0 },
};

/** The RateLimit headers (draft-ietf-httpapi-ratelimit-headers) on every answer of a rate-limited route. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: 'The quota of this route: `<requests>;w=<window seconds>` (e.g. `600;w=60`)',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Every operation of the document with its path and method. */
function operations(doc: OpenApiDocument): { path: string; method: string; op: OperationObject }[] {
  const out: { path: string; method: string; op: OperationObject }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, op] of Object.entries(item))
      if (HTTP_METHODS.has(method)) out.push({ path, method, op });
  return out;
}

/** The media type of the NDJSON streams (docs/api.md "Streams"). */
const NDJSON = 'application/x-ndjson';

/**
 * A stream route `produces` NDJSON and JSON (its errors come before the stream starts): its 2xx answer is
 * documented as the NDJSON stream only, every other answer as JSON only.
 */
function splitStreamMedia(op: OperationObject): void {
  for (const [status, r] of Object.entries(op.responses ?? {})) {
    const content = r.content;
    if (content?.[NDJSON] === undefined || content['application/json'] === undefined) continue;
    if (status.startsWith('2')) delete content['application/json'];
    else delete content[NDJSON];
  }
}

/** Adds the responses and headers every /api operation has (see the module comment). */
function addCommonResponses(path: string, op: OperationObject): void {
  const rateLimited = op[NO_RATE_LIMIT] !== true;
  delete op[NO_RATE_LIMIT];
  if (!path.startsWith('/api/')) return;
  const responses = (op.responses ??= {});
  responses['401'] ??= { description: '', content: ERROR_CONTENT };
  if (op.requestBody !== undefined) {
    responses['413'] ??= { description: '', content: ERROR_CONTENT };
    responses['415'] ??= { description: '', content: ERROR_CONTENT };
  }
  if (rateLimited) responses['429'] ??= { description: '', content: ERROR_CONTENT };
  const sorted = Object.keys(responses).sort();
  for (const status of sorted) {
    const r = responses[status];
    if (r === undefined) continue;
    if (r.description === '' || r.description === 'Default Response')
      r.description = STATUS_DESCRIPTIONS[status] ?? r.description;
    const headers: NonNullable<ResponseObject['headers']> = {
      ...(rateLimited ? RATE_LIMIT_HEADERS : {}),
      ...r.headers,
    };
    if (status === '429' || status === '503') headers['Retry-After'] = RETRY_AFTER;
    if (Object.keys(headers).length > 0) r.headers = headers;
  }
  // Keep the responses in status order (a route's own codes and the added ones interleave).
  op.responses = Object.fromEntries(sorted.map((s) => [s, responses[s] as ResponseObject]));
}

/** Puts an operation's examples into its request body's and responses' JSON media types. */
function addExamples(op: OperationObject, examples: OperationExamples): void {
  const requestMedia = op.requestBody?.content?.['application/json'];
  if (examples.request !== undefined) {
    if (requestMedia === undefined) throw new Error(`${op.operationId}: an example for a missing body`);
    requestMedia.examples = examples.request;
  }
  for (const [status, named] of Object.entries(examples.responses ?? {})) {
    const media = op.responses?.[status]?.content?.['application/json'];
    if (media === undefined) throw new Error(`${op.operationId}: an example for a missing ${status} answer`);
    media.examples = named;
  }
}

/** The `#/components/schemas/NAME` names referenced anywhere in `value`. */
function schemaRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) schemaRefs(v, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/'))
        into.add(decodeURIComponent(v.slice('#/components/schemas/'.length)));
      else schemaRefs(v, into);
    }
  }
}

/** Drops the component schemas that nothing outside `components.schemas` reaches, directly or through others. */
function pruneUnusedSchemas(doc: OpenApiDocument): void {
  const schemas = doc.components?.schemas;
  if (schemas === undefined) return;
  const reached = new Set<string>();
  schemaRefs({ ...doc, components: { ...doc.components, schemas: {} } }, reached);
  const queue = [...reached];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    const more = new Set<string>();
    schemaRefs(schemas[name], more);
    for (const m of more)
      if (!reached.has(m)) {
        reached.add(m);
        queue.push(m);
      }
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

/**
 * A query parameter whose schema says `deprecated` (protocol's DeprecatedOffsetSchema: the old `offset` of
 * the list routes) is marked deprecated as a parameter too, where Swagger UI and generators look for it.
 */
function markDeprecatedParameters(op: OperationObject): void {
  if (!Array.isArray(op.parameters)) return;
  for (const p of op.parameters as { schema?: { deprecated?: unknown }; deprecated?: boolean }[])
    if (p.schema?.deprecated === true) p.deprecated = true;
}

/**
 * Finishes the document in place and returns it. Errors: throws when an example names an operation, a body
 * or an answer the document does not have (a renamed route: fix api-examples.ts).
 */
export function finishOpenApiDocument<T extends OpenApiDocument>(doc: T): T {
  const byId = new Map<string, OperationObject>();
  for (const { path, op } of operations(doc)) {
    splitStreamMedia(op);
    addCommonResponses(path, op);
    markDeprecatedParameters(op);
    if (op.operationId !== undefined) byId.set(op.operationId, op);
  }
  for (const [id, examples] of Object.entries(API_EXAMPLES)) {
    const op = byId.get(id);
    if (op === undefined) throw new Error(`examples for an unknown operation ${id}`);
    addExamples(op, examples);
  }
  pruneUnusedSchemas(doc);
  return doc;
}
