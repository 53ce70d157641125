/**
 * The game session without a server: a fake transport records what leaves and the test answers as the
 * server would. The view is a list of the moves applied (a move is a string), so an optimistic apply and a
 * rollback are plain to see.
 */
import { describe, expect, it } from 'vitest';
import { GameSession, type RequestOutcome, type SentRequest, type SessionEvent } from '../src/session.js';

type View = readonly string[];

/** A transport that records sent requests and resyncs; `up` false refuses to send. */
function fakeTransport() {
  const sent: SentRequest<string>[] = [];
  const t = {
    sent,
    resyncs: 0,
    up: true,
    transport: {
      send: (r: SentRequest<string>) => {
        if (!t.up) return false;
        sent.push(r);
        return true;
      },
      resync: () => {
        t.resyncs++;
      },
    },
  };
  return t;
}

function session(queue: 'rollback' | 'keep', optimistic = false) {
  const t = fakeTransport();
  const s = new GameSession<View, string>({
    transport: t.transport,
    queue,
    ...(optimistic
      ? {
          optimistic: {
            shows: (r) => r.kind === 'move' && r.move !== 'draw',
            apply: (v, m) => (m === 'bad' ? null : [...v, m]),
          },
        }
      : {}),
  });
  const events: SessionEvent<View, string>[] = [];
  s.onEvent((e) => events.push(e));
  s.reset({ version: 0, view: [] });
  return { s, t, events };
}

/** Collects a request's outcome. */
function outcome(): { settle: (o: RequestOutcome<View>) => void; value: () => RequestOutcome<View> | null } {
  let got: RequestOutcome<View> | null = null;
  return {
    settle: (o) => {
      got = o;
    },
    value: () => got,
  };
}

describe('GameSession: the version rule and the queue', () => {
  it('sends one request at a time, each with the version the previous answer produced', () => {
    const { s, t } = session('keep');
    const a = s.request('move', 'a');
    const b = s.request('move', 'b');
    expect(t.sent.map((r) => [r.requestId, r.version])).toEqual([[a.requestId, 0]]);
    expect(s.pending.map((r) => r.move)).toEqual(['a', 'b']);

    s.receive({ version: 1, view: ['a'] }, { requestId: a.requestId });
    expect(t.sent.map((r) => [r.requestId, r.version])).toEqual([
      [a.requestId, 0],
      [b.requestId, 1],
    ]);
    s.receive({ version: 2, view: ['a', 'b'] }, { requestId: b.requestId });
    expect(s.confirmed).toEqual({ version: 2, view: ['a', 'b'] });
    expect(s.pending).toEqual([]);
  });

  it('a request made on a given version is sent at it', () => {
    const { s, t } = session('keep');
    s.receive({ version: 3, view: ['x', 'y', 'z'] });
    s.request('move', 'a', { version: 1 });
    expect(t.sent[0]?.version).toBe(1);
  });

  it('a newer state from elsewhere is taken whole (a gap closed), an older one ignored', () => {
    const { s } = session('keep');
    expect(s.receive({ version: 4, view: ['p', 'q', 'r', 's'] })).toBe(true);
    expect(s.receive({ version: 2, view: ['p', 'q'] })).toBe(false);
    expect(s.confirmed).toEqual({ version: 4, view: ['p', 'q', 'r', 's'] });
  });

  it('waits while the transport cannot send, and sends on flush', () => {
    const { s, t } = session('keep');
    t.up = false;
    s.request('move', 'a');
    expect(t.sent).toEqual([]);
    expect(s.inFlight).toBeNull();
    t.up = true;
    s.flush();
    expect(t.sent.map((r) => r.move)).toEqual(['a']);
    expect(s.inFlight?.version).toBe(0);
  });
});

describe('GameSession: refusals and resync', () => {
  it('keep: a refusal settles the head only and the queue goes on', () => {
    const { s, t } = session('keep');
    const first = outcome();
    const a = s.request('move', 'a', { settle: first.settle });
    s.request('move', 'b');
    s.refuse(a.requestId, { code: 'illegal-move', message: 'no', version: 0, reason: 'not-alternating' });
    expect(first.value()).toEqual({
      ok: false,
      refusal: { code: 'illegal-move', message: 'no', version: 0, reason: 'not-alternating' },
    });
    expect(t.resyncs).toBe(0);
    expect(t.sent.map((r) => [r.move, r.version])).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
  });

  it('keep: stale-version resyncs, and the refusal settles once the resynced state is held', () => {
    const { s, t } = session('keep');
    const o = outcome();
    const a = s.request('move', 'a', { settle: o.settle });
    s.refuse(a.requestId, { code: 'stale-version', message: 'stale', version: 5 });
    expect(t.resyncs).toBe(1);
    expect(o.value()).toBeNull();
    s.receive({ version: 5, view: ['1', '2', '3', '4', '5'] }, { resync: true });
    expect(o.value()).toMatchObject({ ok: false, refusal: { code: 'stale-version', version: 5 } });
    expect(s.version).toBe(5);
  });

  it('keep: a lost answer is sent again when the resync shows the version unchanged', () => {
    const { s, t } = session('keep');
    const o = outcome();
    s.request('move', 'a', { settle: o.settle });
    s.lost();
    s.receive({ version: 0, view: [] }, { resync: true });
    expect(t.sent.map((r) => [r.move, r.version, r.resent])).toEqual([
      ['a', 0, false],
      ['a', 0, true],
    ]);
    // The re-sent copy is refused as stale: its first copy was applied; it resolves with the resynced state.
    const id = t.sent[1]?.requestId ?? '';
    s.refuse(id, { code: 'stale-version', message: 'stale', version: 1 });
    s.receive({ version: 1, view: ['a'] }, { resync: true });
    expect(o.value()).toEqual({ ok: true, state: { version: 1, view: ['a'] } });
  });

  it('keep: a lost answer resolves without a resend when the resync shows the version moved on', () => {
    const { s, t } = session('keep');
    const o = outcome();
    s.request('move', 'a', { settle: o.settle });
    s.lost();
    s.receive({ version: 1, view: ['a'] }, { resync: true });
    expect(o.value()).toEqual({ ok: true, state: { version: 1, view: ['a'] } });
    expect(t.sent).toHaveLength(1);
  });

  it('rollback: a refusal drops the whole queue and resyncs on stale-version', () => {
    const { s, t, events } = session('rollback', true);
    const a = s.request('move', 'a');
    s.request('move', 'b');
    expect(s.view).toEqual(['a', 'b']); // optimistic
    s.refuse(a.requestId, { code: 'stale-version', message: 'stale', version: 3 });
    expect(s.pending).toEqual([]);
    expect(s.view).toEqual([]); // rolled back
    expect(t.resyncs).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['refused', 'rolled-back']);
  });

  it('rollback: a refusal naming the version held does not resync', () => {
    const { s, t } = session('rollback', true);
    const a = s.request('move', 'a');
    s.refuse(a.requestId, { code: 'illegal-move', message: 'no', version: 0 });
    expect(t.resyncs).toBe(0);
    expect(s.view).toEqual([]);
  });
});

describe('GameSession: optimistic apply', () => {
  it('shows the moves it may show, stops at one it may not, and takes the server state on the answer', () => {
    const { s } = session('rollback', true);
    const a = s.request('move', 'a');
    s.request('move', 'draw');
    s.request('move', 'c');
    expect(s.view).toEqual(['a']); // the draw is not shown, nor what follows it
    expect(s.busy).toBe(true);
    s.receive({ version: 1, view: ['A'] }, { requestId: a.requestId }); // the server's view, whole
    expect(s.confirmed).toEqual({ version: 1, view: ['A'] });
    expect(s.view).toEqual(['A']);
  });

  it('a resync replaces local state whole and rolls the shown moves back', () => {
    const { s, t } = session('rollback', true);
    const o = outcome();
    s.request('move', 'a', { settle: o.settle });
    s.request('move', 'b');
    expect(s.view).toEqual(['a', 'b']);
    s.receive({ version: 0, view: ['resynced'] }, { resync: true });
    expect(s.view).toEqual(['resynced']);
    expect(s.pending).toEqual([]);
    expect(o.value()).toMatchObject({ ok: false, refusal: { code: 'cancelled' } });
    expect(t.sent).toHaveLength(1); // the dropped second move never left
  });

  it('a state from elsewhere rolls pending moves back; a lost answer rolls back and resyncs', () => {
    const { s, t } = session('rollback', true);
    s.request('move', 'a');
    s.receive({ version: 1, view: ['other'] });
    expect(s.view).toEqual(['other']);
    expect(s.pending).toEqual([]);

    s.request('move', 'b');
    expect(s.view).toEqual(['other', 'b']);
    s.lost();
    expect(s.view).toEqual(['other']);
    expect(t.resyncs).toBe(1);
  });

  it('a move the apply refuses is not shown (nor what follows it)', () => {
    const { s } = session('rollback', true);
    s.request('move', 'bad');
    s.request('move', 'c');
    expect(s.view).toEqual([]);
  });
});
