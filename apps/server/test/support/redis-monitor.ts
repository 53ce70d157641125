/**
 * A tap on what Redis is asked to publish: a raw MONITOR connection (ioredis's `monitor()` mistakes a line
 * that arrives with MONITOR's `+OK` for a reply when Redis is busy). MONITOR subscribes to nothing, so the
 * tap never counts as a receiver of a PUBLISH, and it sees every PUBLISH, whether anyone listens or not.
 */
import { createConnection } from 'node:net';

/** One PUBLISH Redis was sent: its channel (without the prefix) and its text. */
export interface Published {
  readonly channel: string;
  readonly text: string;
}

/** A running tap. */
export interface PublishTap {
  /** Every PUBLISH on a channel under the prefix since the tap started, oldest first. */
  readonly published: Published[];
  close(): void;
}

/** Undoes the escaping of a MONITOR line's quoted argument (Redis's `sdscatrepr`). */
function unquote(text: string): string {
  return text.replace(/\\(x[0-9a-f]{2}|.)/g, (_all, e: string) => {
    if (e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' } as Record<string, string>)[e] ?? e;
  });
}

/** The arguments of one MONITOR line (`+<time> [<db> <client>] "cmd" "arg" …`), unquoted. */
function argumentsOf(line: string): string[] {
  const start = line.indexOf('] ');
  if (start < 0) return [];
  return [...line.slice(start + 2).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unquote(m[1] ?? ''));
}

/** Starts a tap on the Redis at `url` for the channels under `prefix`; resolves once MONITOR is on. */
export function tapPublishes(url: string, prefix: string): Promise<PublishTap> {
  const { hostname, port } = new URL(url);
  const socket = createConnection({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
  const published: Published[] = [];
  let buffer = '';
  return new Promise((resolve, reject) => {
    let on = false;
    socket.once('error', reject);
    socket.on('connect', () => socket.write('MONITOR\r\n'));
    socket.on('data', (data: Buffer) => {
      buffer += data.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (!on) {
          if (line !== '+OK') return reject(new Error(`MONITOR refused: ${line}`));
          on = true;
          resolve({ published, close: () => socket.destroy() });
          continue;
        }
        const [command, channel, text] = argumentsOf(line);
        if (command?.toLowerCase() === 'publish' && channel?.startsWith(prefix) && text !== undefined)
          published.push({ channel: channel.slice(prefix.length), text });
      }
    });
  });
}
