/** The cluster soak's server nodes: started as `pnpm start` does, on a port each, stopped or killed. */
import { type ChildProcess, spawn } from 'node:child_process';
import { PRODUCTION, SERVER_DIR, sleep } from './settings.js';

/** A server node: its port stays the same across a restart, so nginx's upstream list stays true. */
export interface Node {
  readonly port: number;
  child: ChildProcess;
  output: string;
}

/**
 * Starts `dist/main.js` on 127.0.0.1:`port` with the production flags, `extraFlags` and `env`; resolves once
 * `/api/health` answers. Errors: throws when the process exits or does not answer within 60 s.
 */
export async function startNode(
  port: number,
  env: Record<string, string>,
  extraFlags: readonly string[] = [],
): Promise<Node> {
  const child = spawn(process.execPath, [...PRODUCTION.nodeFlags, ...extraFlags, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...PRODUCTION.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = { port, child, output: '' };
  const keep = (d: Buffer) => {
    node.output = (node.output + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node :${port} exited (${child.exitCode}):\n${node.output}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return node;
    if (Date.now() > deadline) throw new Error(`node :${port} did not start:\n${node.output}`);
    await sleep(100);
  }
}

/** Sends `signal` to the node (SIGKILL after 15 s) and waits for it to exit; at once when it has exited. */
export async function stopNode(node: Node, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => node.child.once('exit', () => r()));
  node.child.kill(signal);
  const timer = setTimeout(() => node.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
