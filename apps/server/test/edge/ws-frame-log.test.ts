/**
 * Issue 53 item 9(e): a client sending oversized frames cannot fill the log at error level. The attacker
 * sends frames over MAX_FRAME_BYTES (refused one by one) and over the socket's hard limit (the connection
 * is closed with 1009), again and again; the server's log, read through its pino destination stream, holds
 * no line at warn level or above for them, and each is logged at debug.
 */
import { MAX_FRAME_BYTES } from '@klondike/protocol';
import { describe, expect, it } from 'vitest';
import { WS_MAX_PAYLOAD } from '../../src/edge/plugins/websocket.js';
import { pgliteDatabase, testApp, WsClient, wsUrl } from '../support/helpers.js';

/** pino's level numbers: 20 debug, 40 warn, 50 error. */
const DEBUG = 20;
const WARN = 40;

interface LogLine {
  level: number;
  msg?: string;
}

describe('oversized socket frames and the log', () => {
  it('an attacker sending oversized frames gets no log line at warn or error, only debug ones', async () => {
    const lines: LogLine[] = [];
    const app = await testApp(pgliteDatabase(), {
      config: { logLevel: 'debug' },
      logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const isError = (f: { type: string }) => f.type === 'error';
      const big = JSON.stringify({ type: 'ping', pad: 'x'.repeat(MAX_FRAME_BYTES) });
      const c = await WsClient.connect(wsUrl(app));
      for (let i = 0; i < 5; i++)
        expect(await c.request(big, isError)).toMatchObject({ code: 'frame-too-large' });
      c.close();
      for (let i = 0; i < 3; i++) {
        const huge = await WsClient.connect(wsUrl(app));
        huge.send('x'.repeat(WS_MAX_PAYLOAD + 1));
        expect(await huge.closed()).toBe(1009);
      }
      await new Promise((r) => setTimeout(r, 100));
      const loud = lines.filter((l) => l.level >= WARN);
      expect(loud).toEqual([]);
      const tooLarge = lines.filter((l) => l.level === DEBUG && /frame/i.test(l.msg ?? ''));
      expect(tooLarge.length).toBeGreaterThanOrEqual(8);
    } finally {
      await app.close();
    }
  });
});
