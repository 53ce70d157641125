/** The CPU and allocation profiles of the server as the report summarises them (BENCH_PROFILE=1). */
import { ms, table } from './format.js';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A sampling heap profile (HeapProfiler.stopSampling): a call tree with the bytes each frame allocated. */
export interface AllocationProfile {
  head: AllocationNode;
}

export interface AllocationNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes allocated per move by function (self) and by area, from a sampling heap profile over `moves` moves. */
export function summariseAllocations(profile: AllocationProfile, moves: number): string[] {
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  const walk = (n: AllocationNode): void => {
    if (n.selfSize > 0) {
      const { functionName, url, lineNumber } = n.callFrame;
      const where = url === '' ? '' : ` ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
      const k = `${functionName || '(anonymous)'}${where}`;
      self.set(k, (self.get(k) ?? 0) + n.selfSize);
      const a = areaOf(url, functionName);
      area.set(a, (area.get(a) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  const perMove = (b: number): string => `${(b / Math.max(1, moves)).toFixed(0)} B`;
  const top = (m: Map<string, number>, n: number): [string, number][] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `Allocations (sampled every 16 KB, garbage included): ${perMove(total)} per move in all.`,
    '',
    ...table(
      ['area', 'bytes / move'],
      top(area, 10).map(([k, v]) => [k, perMove(v)]),
    ),
    '',
    ...table(
      ['function', 'bytes / move'],
      top(self, 20).map(([k, v]) => [`\`${k}\``, perMove(v)]),
    ),
  ];
}

/** Which part of the stack a script belongs to. */
export function areaOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native / V8 builtins)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const p = pkg[1] as string;
    if (p.startsWith('@prisma/') || p === 'prisma' || p.includes('prisma')) return `prisma (${p})`;
    return p;
  }
  if (url.includes('/src/generated/')) return 'prisma (generated client)';
  if (url.includes('/packages/klondike/')) return '@klondike/rules';
  if (url.includes('/packages/protocol/')) return '@klondike/protocol';
  if (url.includes('/apps/server/src/')) return 'server src';
  // The production build bundles the server with the rules and protocol packages into one file.
  if (url.includes('/apps/server/dist/')) return 'server build (server, rules, protocol)';
  if (url.startsWith('node:')) return 'node core';
  return url;
}

export function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length).replace(/^\.pnpm\/[^/]+\/node_modules\//, '');
  const j = url.indexOf('/work/');
  return (j >= 0 ? url.slice(url.indexOf('/', url.indexOf('/', j + 6) + 1) + 1) : url).replace(
    /^file:\/\//,
    '',
  );
}

export function summariseProfile(profile: CpuProfile): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // tsx-compiled workspace files report every function on line 1: show a line only where it means something.
  const key = (n: ProfileNode): string => {
    const { functionName, url, lineNumber } = n.callFrame;
    const where = url === '' ? '' : ` ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
    return `${functionName || '(anonymous)'}${where}`;
  };
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number);
    if (!node) continue;
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += dt;
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    const a = areaOf(node.callFrame.url, node.callFrame.functionName);
    area.set(a, (area.get(a) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (!n) break;
      const u = n.callFrame.url;
      if (!u.includes('/apps/server/src/') && !u.includes('/apps/server/dist/') && !u.includes('/packages/'))
        continue;
      if (u.includes('/generated/')) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  const top = (m: Map<string, number>, n: number): [string, number][] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  const pct = (v: number): string => `${((100 * v) / busy).toFixed(1)} %`;
  return [
    `Main thread busy ${ms(busy)} ms of the profile (idle excluded); shares are of the busy time.`,
    '',
    'Self time by area:',
    '',
    ...table(
      ['area', 'self'],
      top(area, 14).map(([k, v]) => [k, pct(v)]),
    ),
    '',
    'Top functions by self time:',
    '',
    ...table(
      ['function', 'self'],
      top(self, 20).map(([k, v]) => [`\`${k}\``, pct(v)]),
    ),
    '',
    'Workspace functions by inclusive time (their callees included):',
    '',
    ...table(
      ['function', 'inclusive'],
      top(inclusive, 16).map(([k, v]) => [`\`${k}\``, pct(v)]),
    ),
  ];
}
