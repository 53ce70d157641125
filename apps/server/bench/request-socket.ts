/** The benchmarks' request-and-answer socket client (bench:echo, bench:openings). */
import type { ServerFrame } from '@klondike/protocol';
import WebSocket from 'ws';
import { rawText } from './server-bench/format.js';

/** A socket to a server's /api/ws that sends a frame and waits for the frame answering it. */
export class RequestSocket {
  private waiters: { pred: (f: ServerFrame) => boolean; done: (f: ServerFrame) => void }[] = [];
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const f = JSON.parse(rawText(data)) as ServerFrame;
      this.waiters = this.waiters.filter((w) => (w.pred(f) ? (w.done(f), false) : true));
    });
  }

  /** Opens a socket to `url` (`ws://host:port/api/ws`). Errors: rejects when it does not open. */
  static open(url: string): Promise<RequestSocket> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RequestSocket(ws)));
      ws.once('error', reject);
    });
  }

  /**
   * Sends `frame` and resolves with the first frame after it that satisfies `pred`. Errors: rejects when none
   * came within `timeoutMs` (default 10 s).
   */
  request(frame: object, pred: (f: ServerFrame) => boolean, timeoutMs = 10_000): Promise<ServerFrame> {
    const answer = new Promise<ServerFrame>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(frame)}`)), timeoutMs);
      this.waiters.push({ pred, done: (f) => (clearTimeout(timer), resolve(f)) });
    });
    this.ws.send(JSON.stringify(frame));
    return answer;
  }

  close(): void {
    this.ws.close();
  }
}
