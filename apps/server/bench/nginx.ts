/**
 * Debian's nginx as a round-robin reverse proxy in front of several server nodes on this machine, for the
 * benchmarks and tests that need one (`pnpm soak:cluster`, the browser race over two nodes): a config written
 * to a temporary folder (WebSocket upgrades passed on, no stickiness, round-robin or least connections, the
 * upstream of each request in its access log; as deploy/nginx.conf, a listen queue of 4,096 and upstream
 * connections kept for reuse), nginx in the foreground, and a stop that waits for its exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's nginx package installs it (`apt-get install -y nginx`). */
export const NGINX = '/usr/sbin/nginx';

/** How the proxy is set up. */
export interface NginxOptions {
  /**
   * Connections nginx may hold at once (each proxied socket holds two: client and upstream); default 256.
   * Its open-file limit is set to twice this.
   */
  readonly connections?: number;
  /**
   * Seconds a node that refused a connection is left out of the round before it is tried again (nginx's
   * `fail_timeout` with `max_fails=1`); unset: nginx's defaults.
   */
  readonly failTimeoutSeconds?: number;
  /**
   * How nginx picks a node: `round-robin` (each request to the next node; default) or `least-conn` (the node
   * with the fewest open connections, as deploy/nginx.conf does: sockets spread evenly).
   */
  readonly balance?: 'round-robin' | 'least-conn';
}

/** A running nginx. */
export interface RunningNginx {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Its access log so far: one line a request, `<upstream address> <method> <path> <status>`. */
  log(): string;
  /** Graceful stop (SIGQUIT, SIGKILL after 5 s), then its folder is removed. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts nginx on 127.0.0.1:`port`, round-robin over 127.0.0.1:`upstreams`. Resolves once `/api/health`
 * answers through it; rejects when nginx exits first or does not answer within 15 s.
 */
export async function startNginx(
  port: number,
  upstreams: readonly number[],
  options: NginxOptions = {},
): Promise<RunningNginx> {
  const connections = options.connections ?? 256;
  const fail =
    options.failTimeoutSeconds === undefined
      ? ''
      : ` max_fails=1 fail_timeout=${options.failTimeoutSeconds}s`;
  const dir = mkdtempSync(join(tmpdir(), 'klondike-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d));
  const conf = `
daemon off;
worker_processes 1;
worker_rlimit_nofile ${connections * 2};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${connections}; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstream '$upstream_addr $request_method $uri $status';
  access_log ${dir}/access.log upstream;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream klondike {
${options.balance === 'least-conn' ? '    least_conn;\n' : ''}${upstreams.map((p) => `    server 127.0.0.1:${p}${fail};`).join('\n')}
    keepalive 256;
  }
  server {
    listen 127.0.0.1:${port} backlog=4096;
    location / {
      proxy_pass http://klondike;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  let output = '';
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  let stopped = false;
  return {
    url,
    log: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : ''),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
