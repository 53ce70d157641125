/**
 * Open data routes (docs/data.md): the list of the closed days' export files and the files themselves,
 * gzip-compressed NDJSON under CC0, each served with its SHA-256. Public: the same for everyone.
 */
import { Readable } from 'node:stream';
import {
  DayListQuerySchema,
  ErrorBodySchema,
  ExportListSchema,
  ExportParamsSchema,
} from '@klondike/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC } from '../../infra/http/api-security.js';
import { slicePage } from '../../infra/http/pagination.js';

/** Bytes of the file per chunk of the response stream. */
const CHUNK_BYTES = 64 * 1024;

/** Registers GET /api/exports and GET /api/exports/:date. */
export const openDataRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/exports',
    {
      schema: {
        operationId: 'listDailyExports',
        security: PUBLIC,
        tags: ['daily'],
        summary: "The closed days' open data files (CC0), newest first",
        description:
          "One file per closed day: that day's ranked attempts (people and bots), gzip-compressed NDJSON, one " +
          'game a line (docs/data.md). Each file is made once its day has settled; `sha256` is that of the bytes ' +
          'served by `url`.',
        querystring: DayListQuerySchema,
        response: { 200: ExportListSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
      },
    },
    async (req) => {
      const list = await app.daily.exportList();
      const { page, nextCursor } = slicePage('exports', list.files, req.query);
      return { ...list, files: page, nextCursor };
    },
  );

  app.get(
    '/api/exports/:date',
    {
      schema: {
        operationId: 'getDailyExport',
        security: PUBLIC,
        tags: ['daily'],
        summary: "A closed day's open data file (gzip-compressed NDJSON, CC0)",
        description:
          'The file as listed by GET /api/exports (`application/gzip`; header `x-content-sha256`: its SHA-256 ' +
          'in hex). 404 for a day not yet closed or without dailies.',
        params: ExportParamsSchema,
        produces: ['application/gzip', 'application/json'],
        response: {
          200: z
            .custom<Readable>((v) => v instanceof Readable)
            .meta({ description: 'the gzip-compressed NDJSON file', type: 'string', format: 'binary' }),
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const file = await app.daily.exportFile(req.params.date);
      const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
      const chunks = Array.from({ length: Math.ceil(data.byteLength / CHUNK_BYTES) }, (_, i) =>
        data.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES),
      );
      return reply
        .type('application/gzip')
        .header('content-length', String(data.byteLength))
        .header('content-disposition', `attachment; filename="klondike-daily-${req.params.date}.ndjson.gz"`)
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(Readable.from(chunks));
    },
  );
  return Promise.resolve();
};
