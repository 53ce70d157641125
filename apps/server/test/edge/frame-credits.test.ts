/**
 * The socket's frame credits on a clock the test moves: a second's worth at once, one `refused` per run of
 * refused frames then `dropped`, a flood past a second's worth refused in a row, a continuous refill, and
 * no limit at 0.
 */
import { describe, expect, it } from 'vitest';
import { FrameCredits } from '../../src/edge/frame-credits.js';

function credits(framesPerSecond: number) {
  let now = 1_000_000;
  const bucket = new FrameCredits(framesPerSecond, () => now);
  return { bucket, wait: (ms: number) => (now += ms) };
}

describe('frame credits', () => {
  it('lets a second’s worth through at once, then refuses one and drops the rest of the run', () => {
    const { bucket } = credits(3);
    const verdicts = Array.from({ length: 6 }, () => bucket.take());
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'refused', 'dropped', 'dropped']);
  });

  it('calls a flood when more than a second’s worth in a row are refused', () => {
    const { bucket } = credits(3);
    for (let i = 0; i < 3; i++) bucket.take();
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([
      'refused',
      'dropped',
      'dropped',
      'flood',
    ]);
    expect(bucket.refusedInRow).toBe(4);
  });

  it('refills continuously, and a frame let through ends the refused run', () => {
    const { bucket, wait } = credits(10);
    for (let i = 0; i < 10; i++) bucket.take();
    expect(bucket.take()).toBe('refused');
    wait(250); // 2.5 credits back
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual(['ok', 'ok', 'refused']);
    wait(10_000); // never more than a second's worth
    expect(Array.from({ length: 11 }, () => bucket.take()).filter((v) => v === 'ok')).toHaveLength(10);
  });

  it('0 frames per second is no limit', () => {
    const { bucket } = credits(0);
    for (let i = 0; i < 1000; i++) expect(bucket.take()).toBe('ok');
  });
});
