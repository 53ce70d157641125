/**
 * Compares two `bench/minimal.ts` runs (`JSON=` outputs), e.g. this version against the previous one run
 * from another worktree: `pnpm --filter @klondike/solver exec tsx bench/minimal-compare.ts old.json
 * new.json`. Prints per draw the deals proven by each, the deals proven by both with their minima (they
 * must be equal: two proofs of a shortest line), and the lower bounds where neither proved one.
 */
import { readFileSync } from 'node:fs';

interface DealResult {
  readonly draw: number;
  readonly deal: number;
  readonly proven: boolean;
  readonly lowerBound: number;
  readonly cpuMs: number;
}
const [oldPath, newPath] = process.argv.slice(2);
if (oldPath === undefined || newPath === undefined)
  throw new Error('usage: minimal-compare.ts old.json new.json');
const load = (p: string): DealResult[] => JSON.parse(readFileSync(p, 'utf8')) as DealResult[];
const before = load(oldPath);
const after = load(newPath);
let mismatches = 0;
for (const draw of [1, 3]) {
  const a = after.filter((r) => r.draw === draw);
  if (a.length === 0) continue;
  const rows: string[] = [];
  for (const r of a) {
    const b = before.find((x) => x.draw === draw && x.deal === r.deal);
    if (b === undefined) continue;
    if (b.proven && r.proven && b.lowerBound !== r.lowerBound) mismatches++;
    rows.push(
      `deal ${r.deal}: before ${b.proven ? `${b.lowerBound} in ${b.cpuMs} ms` : `≥ ${b.lowerBound}`}, after ${r.proven ? `${r.lowerBound} in ${r.cpuMs} ms` : `≥ ${r.lowerBound}`}`,
    );
  }
  const pb = before.filter((r) => r.draw === draw && r.proven).length;
  const pa = a.filter((r) => r.proven).length;
  console.log(`draw ${draw}: proven before ${pb}, after ${pa} of ${a.length}\n  ${rows.join('\n  ')}`);
}
console.log(`proven minima that differ between the versions: ${mismatches}`);
if (mismatches > 0) process.exitCode = 1;
