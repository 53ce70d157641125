/**
 * The AsyncAPI 3 document of the WebSocket protocol (`/api/ws`), generated from the same zod frame schemas
 * the server parses and sends with (`ClientFrameSchema`, `ServerFrameSchema` of @klondike/protocol), and
 * served at `/docs/asyncapi.json` (plugin `swagger`).
 *
 * The document describes the server: it *receives* each client frame (one operation per frame type, with the
 * frames it answers with as the operation's `reply`) and *sends* the pushes (`state`, `race`,
 * `race-progress`, `leaderboard`, `error`). Payload schemas are JSON Schema draft 07 (AsyncAPI's default
 * schema format); schemas shared by several frames (`Move`, `PlayerView`, `Race`, …) are components of their own.
 */
import {
  API_ERROR_CODES,
  ClientFrameSchema,
  MAX_FRAME_BYTES,
  ServerFrameSchema,
  type ClientFrame,
  type ServerFrame,
} from '@klondike/protocol';
import { z } from 'zod';
import type { ClientFrameDoc, FrameDocs, ServerFrameDoc } from '../../core/feature-module.js';
import { MODULES } from '../modules.js';
import { API_CONTACT, API_LICENSE, API_VERSION } from './api-info.js';

type ClientType = ClientFrame['type'];
type ServerType = ServerFrame['type'];

/**
 * The connection's own frames (the transport's, edge/socket.ts); every other frame is documented by the module
 * whose channel handles or sends it (its `frames`, e.g. features/races/frame-docs.ts).
 */
const CONNECTION_FRAMES: FrameDocs = {
  client: {
    auth: {
      operationId: 'authenticate',
      scope: null,
      summary: 'Identify the connection as a player',
      description:
        'The player token of `POST /api/players` (browsers cannot set an Authorization header on a WebSocket). ' +
        'Needed to play a game created for a player, to subscribe to a daily game of a day still open (its ' +
        'player only) and to join a race as its racer. Answered with `authed`, or an `unauthorized` error. ' +
        'A connection may send `WS_MAX_AUTH_ATTEMPTS` (5) of them.',
      replies: ['authed'],
    },
    ping: { operationId: 'ping', scope: null, summary: 'Keep-alive', replies: ['pong'] },
  },
  server: {
    error: {
      summary: 'A refused frame',
      description:
        `Sent to the sender alone; the frame changed nothing. \`code\` is one of the API's error codes: ` +
        `${API_ERROR_CODES.map((c) => `\`${c}\``).join(', ')}. ` +
        '`version` is the game’s current version (`stale-version`, `illegal-move`), `reason` the rule that ' +
        'refused an illegal move. `overloaded`, `commit-failed` and `unavailable` mean nothing was stored: send ' +
        'the frame again shortly at the same version. Clients act on the code, never on the message text.',
      push: { operationId: 'sendError', summary: 'The refusal of a frame' },
    },
    pong: { summary: 'The answer to `ping`' },
    authed: { summary: 'Who the connection now is (the answer to `auth`)' },
  },
};

/**
 * Every frame's documentation: the connection's and each module's, keyed by type. Errors: throws when two
 * modules document one frame type, or when a frame type of the protocol has no documentation (a new frame
 * must be documented by the module that handles it).
 */
function frameDocs(modules: readonly (FrameDocs | undefined)[]): {
  client: Record<ClientType, ClientFrameDoc>;
  server: Record<ServerType, ServerFrameDoc>;
} {
  const client: Partial<Record<ClientType, ClientFrameDoc>> = {};
  const server: Partial<Record<ServerType, ServerFrameDoc>> = {};
  for (const docs of [CONNECTION_FRAMES, ...modules]) {
    for (const [type, doc] of Object.entries(docs?.client ?? {}) as [ClientType, ClientFrameDoc][]) {
      if (client[type] !== undefined) throw new Error(`client frame ${type} is documented twice`);
      client[type] = doc;
    }
    for (const [type, doc] of Object.entries(docs?.server ?? {}) as [ServerType, ServerFrameDoc][]) {
      if (server[type] !== undefined) throw new Error(`server frame ${type} is documented twice`);
      server[type] = doc;
    }
  }
  const missing = [
    ...ClientFrameSchema.options.map((o) => o.shape.type.value).filter((t) => client[t] === undefined),
    ...ServerFrameSchema.options.map((o) => o.shape.type.value).filter((t) => server[t] === undefined),
  ];
  if (missing.length > 0) throw new Error(`frames without documentation: ${missing.join(', ')}`);
  return {
    client: client as Record<ClientType, ClientFrameDoc>,
    server: server as Record<ServerType, ServerFrameDoc>,
  };
}

/** The JSON Schema of each frame type, and the shared schemas they reference. */
interface FrameSchemas {
  readonly frames: Map<string, unknown>;
  readonly shared: Record<string, unknown>;
}

const SCHEMAS = '#/components/schemas/';

/**
 * Operations declare no transport security: anyone may connect, and a player identifies in-band with the
 * `auth` frame (which the operations needing a player say).
 */
const NO_TRANSPORT_SECURITY: never[] = [];
const SHARED = '__shared';

/** `race-progress` → `RaceProgressFrame`. */
function schemaName(type: string): string {
  return type.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase()) + 'Frame';
}

/** Rewrites zod's `#/components/schemas/__shared#/definitions/X` to `#/components/schemas/X`; drops `$schema`, `$id`. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$schema' || k === '$id') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith(`${SCHEMAS}${SHARED}#/definitions/`))
      out[k] = SCHEMAS + v.slice(`${SCHEMAS}${SHARED}#/definitions/`.length);
    else out[k] = tidy(v);
  }
  return out;
}

/** The frame union's options as JSON Schemas, as the side reading them sees them (`input` for client frames). */
function frameSchemas(
  options: readonly z.ZodObject<{ type: z.ZodLiteral<string> }>[],
  io: 'input' | 'output',
): FrameSchemas {
  const registry = z.registry<{ id: string }>();
  for (const o of options) registry.add(o, { id: schemaName(o.shape.type.value) });
  const json = z.toJSONSchema(registry, { target: 'draft-7', io, uri: (id) => SCHEMAS + id });
  const frames = new Map<string, unknown>();
  let shared: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(json.schemas)) {
    if (id === SHARED) {
      const defs = (schema as { definitions?: Record<string, unknown> }).definitions ?? {};
      shared = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, tidy(v)]));
    } else frames.set(id, tidy(schema));
  }
  return { frames, shared };
}

/** Where the documented server is: `host` (`name:port`) and whether it is reached over TLS. */
export interface AsyncApiServer {
  readonly host: string;
  readonly secure: boolean;
}

/**
 * The AsyncAPI 3.0.0 document of `/api/ws` on `server` (default `localhost:3000`, plain `ws`), its frames
 * documented by the connection and by `modules` (default: the server's modules' `frames`). Errors: throws
 * when a schema shared by client and server frames reads differently in and out (it would need two names),
 * or as `frameDocs` does.
 */
export function asyncApiDocument(
  server: AsyncApiServer = { host: 'localhost:3000', secure: false },
  modules: readonly (FrameDocs | undefined)[] = MODULES.map((m) => m.frames),
) {
  const { client: CLIENT_FRAMES, server: SERVER_FRAMES } = frameDocs(modules);
  const clientOptions = ClientFrameSchema.options as unknown as z.ZodObject<{ type: z.ZodLiteral<string> }>[];
  const serverOptions = ServerFrameSchema.options as unknown as z.ZodObject<{ type: z.ZodLiteral<string> }>[];
  const client = frameSchemas(clientOptions, 'input');
  const sent = frameSchemas(serverOptions, 'output');
  for (const [name, schema] of Object.entries(client.shared)) {
    const other = sent.shared[name];
    if (other !== undefined && JSON.stringify(other) !== JSON.stringify(schema))
      throw new Error(`schema ${name} differs between client and server frames`);
  }
  const schemas: Record<string, unknown> = {
    ...client.shared,
    ...sent.shared,
    ...Object.fromEntries(client.frames),
    ...Object.fromEntries(sent.frames),
  };

  const messages: Record<string, unknown> = {};
  const channelMessages: Record<string, { $ref: string }> = {};
  const message = (type: string, summary: string, description: string | undefined) => {
    messages[type] = {
      name: type,
      title: `${type} frame`,
      summary,
      ...(description !== undefined ? { description } : {}),
      contentType: 'application/json',
      payload: { $ref: SCHEMAS + schemaName(type) },
    };
    channelMessages[type] = { $ref: `#/components/messages/${type}` };
  };
  for (const [type, d] of Object.entries(CLIENT_FRAMES)) message(type, d.summary, d.description);
  for (const [type, d] of Object.entries(SERVER_FRAMES)) message(type, d.summary, d.description);

  const channel = { $ref: '#/channels/socket' };
  const inChannel = (type: string) => ({ $ref: `#/channels/socket/messages/${type}` });
  const operations: Record<string, unknown> = {};
  for (const [type, d] of Object.entries(CLIENT_FRAMES)) {
    operations[d.operationId] = {
      action: 'receive',
      channel,
      security: NO_TRANSPORT_SECURITY,
      // The scope a personal access token needs to send this frame (docs/api.md "Tokens and scopes").
      'x-scope': d.scope,
      summary: d.summary,
      description:
        (d.description !== undefined ? `${d.description}\n\n` : '') +
        (d.scope === null
          ? 'Needs no scope.'
          : `Scope: \`${d.scope}\` (a connection authenticated with a personal access token without it gets a \`missing-scope\` error frame).`),
      messages: [inChannel(type)],
      ...(d.replies.length > 0
        ? { reply: { channel, messages: [...d.replies, 'error'].map(inChannel) } }
        : {}),
    };
  }
  for (const [type, d] of Object.entries(SERVER_FRAMES))
    if (d.push !== undefined)
      operations[d.push.operationId] = {
        action: 'send',
        channel,
        security: NO_TRANSPORT_SECURITY,
        summary: d.push.summary,
        messages: [inChannel(type)],
      };

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Klondike game socket',
      version: API_VERSION,
      description:
        'One WebSocket at `/api/ws` carries games, races and live leaderboards. Every frame is a JSON object ' +
        `with a \`type\`; a frame larger than ${MAX_FRAME_BYTES} bytes is refused with \`frame-too-large\`, one that ` +
        'does not parse gets an `error` frame with `bad-request`, and neither changes anything. A ' +
        "connection's frames are handled one at a time, in order; `requestId` (up to 64 characters) is echoed " +
        'on the answer to a write. The REST half of the API is the OpenAPI document at `/docs/json`.\n\n' +
        'Close codes: `1008` the connection flooded frames past its budget; `1009` a frame larger than the ' +
        'hard limit; `1012` the server is restarting: reconnect and `subscribe` again at the version you hold; ' +
        '`4401` the token sent with `auth` was revoked (rotated, deleted, or the player signed out everywhere) or ' +
        'has expired, after an `unknown-token` error frame: sign in again.\n\n' +
        'Scopes: `auth` accepts a sign-in token (every frame) or a personal access token (`POST /api/tokens`), ' +
        'which may send only the frames whose scope it holds; each receive operation names its scope ' +
        '(`x-scope`, and in its description).',
      license: { name: API_LICENSE.name, url: API_LICENSE.url },
      contact: API_CONTACT,
    },
    defaultContentType: 'application/json',
    servers: {
      this: {
        host: server.host,
        protocol: server.secure ? 'wss' : 'ws',
        description: 'The server this document is served by',
      },
    },
    channels: {
      socket: {
        address: '/api/ws',
        title: 'The game socket',
        description: 'Client frames (`ClientFrameSchema`) in, server frames (`ServerFrameSchema`) out.',
        servers: [{ $ref: '#/servers/this' }],
        messages: channelMessages,
      },
    },
    operations,
    components: { schemas, messages },
  };
}

/** The AsyncAPI document's type. */
export type AsyncApiDocument = ReturnType<typeof asyncApiDocument>;
