/** The benchmarks' settings from the environment. */

/**
 * The number in the environment variable `name`, or `fallback` when it is unset or empty. Errors: throws when
 * it is not a finite number ≥ 0 (a typo must not silently run another benchmark).
 */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}
