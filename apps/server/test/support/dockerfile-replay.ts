/**
 * The Dockerfile read and replayed without a Docker engine (none runs on the CI machines, and base images
 * cannot be pulled there): each stage gets a folder of its own standing for its file system; COPY copies from
 * the build context (filtered by .dockerignore, with Docker's own matching rules through @balena/dockerignore)
 * or from an earlier stage's folder; RUN runs its shell command in the stage's WORKDIR with the stage's ENV,
 * on this machine's Node.js and pnpm. What a replay cannot stand for: the base image's own files (the host's
 * Node.js and system libraries serve instead), USER (the replay runs as the test's user) and `--chown`.
 *
 * The parse (dockerfile-ast) also feeds the static checks of test/house/dockerfile.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import ignore from '@balena/dockerignore';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';

/** One instruction of a stage, as the replay and the checks need it. */
export type Step =
  | {
      readonly kind: 'copy';
      readonly line: number;
      readonly from?: string;
      readonly chown?: string;
      readonly sources: readonly string[];
      readonly dest: string;
    }
  | { readonly kind: 'run'; readonly line: number; readonly command: string }
  | { readonly kind: 'workdir'; readonly line: number; readonly path: string }
  | { readonly kind: 'env'; readonly line: number; readonly vars: Readonly<Record<string, string>> }
  | { readonly kind: 'user'; readonly line: number; readonly user: string }
  | { readonly kind: 'healthcheck'; readonly line: number; readonly text: string }
  | { readonly kind: 'cmd'; readonly line: number; readonly argv: readonly string[] }
  | { readonly kind: 'other'; readonly line: number; readonly keyword: string; readonly text: string };

/** A build stage: its name (or index), base image (ARG defaults expanded) and steps in order. */
export interface Stage {
  readonly name: string;
  readonly image: string;
  readonly steps: readonly Step[];
}

/** Expands `${NAME}` / `$NAME` from the ARGs declared before the first FROM (their defaults). */
function expand(text: string, args: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (m, a?: string, b?: string) => {
      const name = a ?? b ?? '';
      return args[name] ?? m;
    },
  );
}

function flagValue(instruction: Instruction, name: string): string | undefined {
  const flags =
    (
      instruction as unknown as { getFlags?: () => { getName(): string; getValue(): string | null }[] }
    ).getFlags?.() ?? [];
  const flag = flags.find((f) => f.getName() === name);
  return flag?.getValue() ?? undefined;
}

/** Parses a Dockerfile into its stages (dockerfile-ast), with the ARG defaults before FROM expanded. */
export function parseDockerfile(text: string): Stage[] {
  const file = DockerfileParser.parse(text);
  const args: Record<string, string> = {};
  for (const arg of file.getInitialARGs()) {
    const property = arg.getProperty();
    const name = property?.getName();
    const value = property?.getValue();
    if (name !== undefined && value !== null && value !== undefined) args[name] = value;
  }
  const stages: { name: string; image: string; steps: Step[] }[] = [];
  for (const instruction of file.getInstructions()) {
    const keyword = instruction.getKeyword();
    const line = instruction.getRange().start.line + 1;
    const argv = instruction.getArguments().map((a) => a.getValue());
    if (keyword === 'FROM') {
      const words = argv.filter((w) => !w.startsWith('--'));
      const image = expand(words[0] ?? '', args);
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({
        name: as >= 0 ? (words[as + 1] ?? String(stages.length)) : String(stages.length),
        image,
        steps: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) continue; // ARGs before the first FROM
    const content = instruction.getArgumentsContent() ?? '';
    switch (keyword) {
      case 'COPY':
      case 'ADD': {
        const words = argv.filter((w) => !w.startsWith('--'));
        const dest = words.pop() ?? '';
        const from = flagValue(instruction, 'from');
        const chown = flagValue(instruction, 'chown');
        stage.steps.push({
          kind: 'copy',
          line,
          sources: words,
          dest,
          ...(from === undefined ? {} : { from }),
          ...(chown === undefined ? {} : { chown }),
        });
        break;
      }
      case 'RUN':
        stage.steps.push({ kind: 'run', line, command: content.replace(/\\\r?\n/g, ' ').trim() });
        break;
      case 'WORKDIR':
        stage.steps.push({ kind: 'workdir', line, path: argv[0] ?? '/' });
        break;
      case 'ENV': {
        const vars: Record<string, string> = {};
        const properties = (
          instruction as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }
        ).getProperties();
        for (const p of properties) vars[p.getName()] = p.getValue() ?? '';
        stage.steps.push({ kind: 'env', line, vars });
        break;
      }
      case 'USER':
        stage.steps.push({ kind: 'user', line, user: argv[0] ?? '' });
        break;
      case 'HEALTHCHECK':
        stage.steps.push({ kind: 'healthcheck', line, text: content });
        break;
      case 'CMD':
        stage.steps.push({ kind: 'cmd', line, argv: JSON.parse(content) as string[] });
        break;
      default:
        stage.steps.push({ kind: 'other', line, keyword, text: content });
    }
  }
  return stages;
}

/** The workspace's package folders (pnpm-workspace.yaml's `packages/*` and `apps/*` globs) that hold a package.json. */
export function workspacePackageDirs(root: string): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s*-\s*['"]?([^'"\n]+?)\/\*['"]?\s*$/gm)].map((m) => m[1] ?? '');
  const dirs: string[] = [];
  for (const g of globs) {
    if (!existsSync(join(root, g))) continue;
    for (const entry of readdirSync(join(root, g), { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(root, g, entry.name, 'package.json')))
        dirs.push(`${g}/${entry.name}`);
    }
  }
  return dirs.sort();
}

/**
 * The workspace manifests (`<package>/package.json`) that the build stage's `pnpm install` does not see: those
 * no COPY before the first RUN that installs copies (a COPY of the file, of a folder holding it, or of `.`).
 */
export function manifestsMissingFromInstall(
  stages: readonly Stage[],
  packageDirs: readonly string[],
): string[] {
  const build = stages.find((s) =>
    s.steps.some((st) => st.kind === 'run' && /\bpnpm (install|fetch)\b/.test(st.command)),
  );
  if (build === undefined) return packageDirs.map((d) => `${d}/package.json`);
  const copied: string[] = [];
  for (const step of build.steps) {
    if (step.kind === 'run' && /\bpnpm (install|fetch)\b/.test(step.command)) break;
    if (step.kind === 'copy' && step.from === undefined)
      copied.push(...step.sources.map((s) => s.replace(/^\.\//, '').replace(/\/$/, '')));
  }
  const covers = (source: string, file: string) =>
    source === '.' || source === '' || file === source || file.startsWith(`${source}/`);
  return packageDirs.map((d) => `${d}/package.json`).filter((file) => !copied.some((s) => covers(s, file)));
}

/** A replay's outcome: each stage's folder, and how to run the last stage's CMD. */
export interface Replay {
  readonly roots: ReadonlyMap<string, string>;
  readonly final: {
    readonly root: string;
    readonly workdir: string;
    readonly env: Readonly<Record<string, string>>;
    readonly cmd: readonly string[];
  };
}

/** Options of {@link replayDockerfile}. */
export interface ReplayOptions {
  /** The build context (the repository). */
  readonly context: string;
  /** The Dockerfile's text. */
  readonly dockerfile: string;
  /** An empty folder for the stages' file systems. */
  readonly scratch: string;
  /** Receives each RUN's output (the test writes it to a log file). */
  readonly log: (text: string) => void;
}

/** `pnpm` for RUN steps: the pnpm running this test (npm_execpath), else npx with the packageManager version. */
function pnpmShim(binDir: string, context: string): void {
  mkdirSync(binDir, { recursive: true });
  const execpath = process.env.npm_execpath ?? '';
  const manager =
    (JSON.parse(readFileSync(join(context, 'package.json'), 'utf8')) as { packageManager?: string })
      .packageManager ?? 'pnpm@10';
  const body =
    /pnpm(\.c?js)?$/.test(execpath) && existsSync(execpath)
      ? `exec "${process.execPath}" "${execpath}" "$@"`
      : `exec npx --yes ${manager} "$@"`;
  writeFileSync(join(binDir, 'pnpm'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

function run(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (text: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const take = (d: Buffer) => {
      const text = d.toString();
      log(text);
      tail = (tail + text).slice(-4000);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command} exited ${code}:\n${tail}`)),
    );
  });
}

/**
 * Replays `dockerfile`'s stages in `scratch`. Throws with the step's line on the first that fails (a COPY of
 * something missing, a RUN that exits non-zero, a RUN naming an absolute path, which a replay cannot map).
 */
export async function replayDockerfile(options: ReplayOptions): Promise<Replay> {
  const { context, scratch, log } = options;
  const stages = parseDockerfile(options.dockerfile);
  const dockerignore = existsSync(join(context, '.dockerignore'))
    ? readFileSync(join(context, '.dockerignore'), 'utf8')
    : '';
  const ignored = ignore().add(dockerignore.split('\n'));
  const binDir = join(scratch, '.bin');
  pnpmShim(binDir, context);
  const roots = new Map<string, string>();
  let final: Replay['final'] | undefined;
  for (const [index, stage] of stages.entries()) {
    const root = join(scratch, `stage-${index}-${stage.name}`);
    mkdirSync(root, { recursive: true });
    roots.set(stage.name, root);
    const inStage = (path: string) => join(root, path);
    let workdir = '/';
    const env: Record<string, string> = {};
    let cmd: readonly string[] = [];
    const copyFromContext = (source: string, target: string) => {
      const walk = (rel: string, to: string) => {
        if (rel !== '' && ignored.ignores(rel)) return;
        const abs = join(context, rel);
        if (statSync(abs).isDirectory()) {
          mkdirSync(to, { recursive: true });
          for (const name of readdirSync(abs)) walk(rel === '' ? name : `${rel}/${name}`, join(to, name));
        } else {
          mkdirSync(dirname(to), { recursive: true });
          cpSync(abs, to);
        }
      };
      walk(source === '.' ? '' : source.replace(/^\.\//, '').replace(/\/$/, ''), target);
    };
    for (const step of stage.steps) {
      const where = `Dockerfile line ${step.line}`;
      switch (step.kind) {
        case 'workdir':
          workdir = step.path.startsWith('/') ? step.path : join(workdir, step.path);
          mkdirSync(inStage(workdir), { recursive: true });
          break;
        case 'env':
          Object.assign(env, step.vars);
          break;
        case 'cmd':
          cmd = step.argv;
          break;
        case 'copy': {
          const destAbs = step.dest.startsWith('/') ? step.dest : join(workdir, step.dest);
          const intoDir = step.dest.endsWith('/') || step.sources.length > 1;
          for (const source of step.sources) {
            let from: string;
            if (step.from !== undefined) {
              const other = roots.get(step.from);
              if (other === undefined) throw new Error(`${where}: no stage ${step.from}`);
              from = join(other, source);
            } else {
              from = join(context, source);
            }
            if (!existsSync(from)) throw new Error(`${where}: COPY source ${source} does not exist`);
            const isDir = statSync(from).isDirectory();
            const target = intoDir && !isDir ? join(inStage(destAbs), basename(source)) : inStage(destAbs);
            if (step.from !== undefined) {
              mkdirSync(isDir ? target : dirname(target), { recursive: true });
              cpSync(from, target, { recursive: true, verbatimSymlinks: true });
            } else {
              copyFromContext(relative(context, from) || '.', target);
            }
          }
          break;
        }
        case 'run': {
          if (/^npm install -g pnpm@[\d.]+$/.test(step.command)) break; // this machine's pnpm stands in (the shim)
          if (/(^|[\s=:])\/(?!dev\/null)/.test(step.command))
            throw new Error(
              `${where}: RUN names an absolute path, which a replay cannot map: ${step.command}`,
            );
          log(`\n$ ${step.command}\n`);
          await run(
            step.command,
            inStage(workdir),
            { ...process.env, ...env, PATH: `${binDir}:${process.env.PATH ?? ''}` },
            log,
          );
          break;
        }
        default:
          break;
      }
    }
    final = { root, workdir, env, cmd };
  }
  if (final === undefined) throw new Error('the Dockerfile has no stage');
  return { roots, final };
}

/** Whether a Docker engine answers here (`docker info`). */
export function dockerEngineAnswers(): boolean {
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}
