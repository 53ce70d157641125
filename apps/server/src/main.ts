/**
 * Entry point: builds the server and listens on HOST:PORT (see config.ts). SIGINT/SIGTERM close it
 * cleanly (queued writes finish, sockets close, the database closes) before the process exits.
 */
import { buildApp } from './app.js';

const app = await buildApp();
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
await app.listen({ port: app.config.port, host: app.config.host });
