/**
 * Fault suite: one socket floods frames while 50 others play. Asserted: the flooder is cut (1008) within a
 * second of starting. Measured and printed (a figure for the closing note, not a timed assertion): the p99
 * round trip of the 50 polite sockets before and during the flood.
 */
import { describe, expect, it } from 'vitest';
import { FLOOD_CLOSE_CODE } from '../../src/edge/socket.js';
import { pgliteDatabase, testApp, WsClient, wsUrl } from '../support/helpers.js';

const POLITE = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
}

describe('fault: a flooding socket', () => {
  it('is cut within a second while 50 polite sockets keep playing', async () => {
    const app = await testApp(pgliteDatabase(), { config: { wsFramesPerSecond: 200, logLevel: 'fatal' } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const polite = await Promise.all(Array.from({ length: POLITE }, () => WsClient.connect(wsUrl(app))));
      const state: { phase: 'before' | 'during' | 'stop' } = { phase: 'before' };
      const rtt: Record<'before' | 'during', number[]> = { before: [], during: [] };
      const loops = polite.map(async (ws) => {
        while (state.phase !== 'stop') {
          const t = performance.now();
          const at = state.phase;
          await ws.request({ type: 'ping' }, (f) => f.type === 'pong');
          if (state.phase === at) rtt[at].push(performance.now() - t);
          await sleep(20);
        }
      });
      await sleep(3000);
      const flood = await WsClient.connect(wsUrl(app));
      state.phase = 'during';
      const started = performance.now();
      let sent = 0;
      while (flood.closeCode === undefined && performance.now() - started < 2000) {
        for (let i = 0; i < 200; i++) flood.send({ type: 'ping' });
        sent += 200;
        await sleep(1);
      }
      const cutAfterMs = flood.closeCode === undefined ? null : Math.round(performance.now() - started);
      await sleep(1000);
      state.phase = 'stop';
      await Promise.all(loops);
      for (const ws of polite) ws.close();
      const figures = {
        floodFramesSent: sent,
        cutAfterMs,
        closeCode: flood.closeCode,
        p99BeforeMs: +p99(rtt.before).toFixed(2),
        p99DuringMs: +p99(rtt.during).toFixed(2),
        roundTrips: rtt.before.length + rtt.during.length,
      };
      console.log(process.env.FAULT_REPORT ? JSON.stringify({ flood: figures }) : figures);
      expect(flood.closeCode).toBe(FLOOD_CLOSE_CODE);
      expect(cutAfterMs).not.toBeNull();
      expect(cutAfterMs as number).toBeLessThan(1000);
      expect(rtt.during.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  }, 60_000);
});
