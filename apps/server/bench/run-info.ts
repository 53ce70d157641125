/** What a benchmark's report says about the code it ran. */
import { execFileSync } from 'node:child_process';

/**
 * The short git revision of `serverDir`'s checkout, marked `(server or packages modified)` when the server's
 * sources or the workspace packages differ from it; `?` outside a git checkout.
 */
export function gitHead(serverDir: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: serverDir }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', '../../packages'], {
      cwd: serverDir,
    })
      .toString()
      .trim();
    return dirty === '' ? head : `${head} (server or packages modified)`;
  } catch {
    return '?';
  }
}
