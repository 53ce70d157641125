/**
 * The map of other nodes' interest (infra/bus/interest.ts): announcements add, remove and replace a node's
 * topics; a dropped node is in no topic; `heardSince` tells a node heard after a mark from one that was not.
 */
import { describe, expect, it } from 'vitest';
import { PeerInterest } from '../../../src/infra/bus/interest.js';

const sorted = (s: ReadonlySet<string>) => [...s].sort();

describe('PeerInterest', () => {
  it('watch, unwatch and reset change what each topic is sent to', () => {
    const p = new PeerInterest();
    p.watch('n1', ['game:a', 'game:b']);
    p.watch('n2', ['game:a']);
    expect(sorted(p.nodes('game:a'))).toEqual(['n1', 'n2']);
    p.unwatch('n1', ['game:a']);
    expect(sorted(p.nodes('game:a'))).toEqual(['n2']);
    p.reset('n2', ['race:x']); // all n2 watches now
    expect(sorted(p.nodes('game:a'))).toEqual([]);
    expect(sorted(p.nodes('race:x'))).toEqual(['n2']);
    expect(sorted(p.topics('n1'))).toEqual(['game:b']);
    expect(p.known().sort()).toEqual(['n1', 'n2']);
  });

  it('a dropped node is sent nothing and no longer known', () => {
    const p = new PeerInterest();
    p.watch('n1', ['game:a', 'arena:z']);
    p.watch('n2', ['game:a']);
    p.drop('n1');
    expect(sorted(p.nodes('game:a'))).toEqual(['n2']);
    expect(sorted(p.nodes('arena:z'))).toEqual([]);
    expect(p.known()).toEqual(['n2']);
  });

  it('heardSince: only announcements after the mark count', () => {
    const p = new PeerInterest();
    p.watch('n1', ['game:a']);
    const mark = p.mark;
    expect(p.heardSince('n1', mark)).toBe(false);
    expect(p.heardSince('n2', mark)).toBe(false);
    p.reset('n2', []);
    expect(p.heardSince('n2', mark)).toBe(true);
    expect(p.heardSince('n1', mark)).toBe(false);
  });
});
