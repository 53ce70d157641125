/**
 * One game session: the client's half of the version rule, kept once for every client of the protocol (the
 * package's `KlondikeSocket` and the web app's `useGame` are adapters over it). Pure TypeScript: no timers,
 * no WebSocket, no Vue; what carries the requests (a socket, REST, a fake in tests) is a `SessionTransport`.
 *
 * - **State.** `confirmed` is `{version, view}` as the server last said. A state from the server replaces it
 *   whole (the view is the whole view: a gap — versions skipped — is closed by the newer state); an older
 *   one is ignored unless it is a resync's.
 * - **The version rule.** Requests (move, undo, resign) wait in a queue and go one at a time, each with the
 *   version it was made on: the confirmed version when it leaves (or the version the caller gave). Only the
 *   head is ever in flight; the next leaves when the head's answer came.
 * - **Resync.** A `stale-version` refusal, a refusal naming another version than the one held, or the server
 *   saying it lost the subscription asks the transport for the authoritative state (`transport.resync`);
 *   the answer comes back through `receive(…, {resync: true})` and replaces local state whole.
 * - **Optimistic apply (optional).** With `optimistic`, the requests it `shows` are applied to the confirmed
 *   view at once (`view`); they roll back when the server refuses, when a resync or a state the session did
 *   not ask for replaces local state, or when the answer is lost (`queue: 'rollback'`).
 *
 * Two queue policies, for the two kinds of caller:
 * - `'rollback'` (an interactive table): a refusal, a lost answer, a resync or a state from elsewhere drops
 *   the whole queue (every queued request is settled as refused or `cancelled`): the player sees the server's
 *   truth and plays again from there.
 * - `'keep'` (a script or a bot awaiting each request): a refusal settles the head only and the queue goes on
 *   at the version then held. A head whose answer was lost (`lost()`) waits for the next resync: still at the
 *   version it was sent at → it was not applied, it is sent again; moved on → its first copy was applied, and
 *   it resolves with the resynced state. A re-sent head refused as `stale-version` was applied by its first
 *   copy (the server was still finishing it): it resolves with the state after the resync. This assumes one
 *   writer per game.
 */

/** What a request asks for. */
export type RequestKind = 'move' | 'undo' | 'resign';

/** A game's state as the server confirmed it. */
export interface ConfirmedState<V> {
  /** The game's version: the number of moves, undos and resignations applied. */
  readonly version: number;
  /** The player's view at that version. */
  readonly view: V;
}

/** A refusal of a request (the server's error code and details), or a cancellation (`code: 'cancelled'`). */
export interface SessionRefusal {
  /** The server's error code (`stale-version`, `illegal-move`, …), or `cancelled` (dropped from the queue). */
  readonly code: string;
  readonly message: string;
  /** The game's version the server named (with `stale-version`, `illegal-move`). */
  readonly version?: number;
  /** Which rule refused a move (with `illegal-move`). */
  readonly reason?: string;
}

/** How a request ended: the state after it, or its refusal. */
export type RequestOutcome<V> =
  | { readonly ok: true; readonly state: ConfirmedState<V> }
  | { readonly ok: false; readonly refusal: SessionRefusal };

/** A request of the queue, as the transport and listeners see it. */
export interface SessionRequest<M> {
  /** Unique within the session: the answer names it (`requestId` of the protocol's frames). */
  readonly requestId: string;
  readonly kind: RequestKind;
  /** The move (kind `move` only). */
  readonly move: M | undefined;
}

/** A request leaving for the server: the version it was made on. */
export interface SentRequest<M> extends SessionRequest<M> {
  /** The version the server must hold for it to apply. */
  readonly version: number;
  /** Sent again after a lost answer (`queue: 'keep'`). */
  readonly resent: boolean;
}

/** Carries requests to the server and asks for resyncs; the answers come back through the session's methods. */
export interface SessionTransport<M> {
  /**
   * Sends `request`; its answer comes back as `receive(state, {requestId})` or `refuse(requestId, …)`.
   * Returns false when it cannot send now (the session then waits for `flush()` or a resync).
   */
  send(request: SentRequest<M>): boolean;
  /** Asks for the authoritative state; it comes back as `receive(state, {resync: true})`. */
  resync(): void;
}

/** What happened in a session (for announcements; `onChange` tells every change of state or queue). */
export type SessionEvent<V, M> =
  | {
      /** The server applied the session's request. */
      readonly type: 'acknowledged';
      readonly request: SessionRequest<M>;
      readonly before: V | null;
      readonly state: ConfirmedState<V>;
    }
  | {
      /** A state the session did not ask for (another client's move) or a resync's replaced local state. */
      readonly type: 'state';
      readonly resync: boolean;
      readonly before: V | null;
      readonly state: ConfirmedState<V>;
    }
  | {
      /** The server refused the session's request. */
      readonly type: 'refused';
      readonly request: SessionRequest<M>;
      readonly refusal: SessionRefusal;
    }
  | {
      /** Requests were dropped from the queue (their optimistic moves rolled back). */
      readonly type: 'rolled-back';
      readonly requests: readonly SessionRequest<M>[];
    };

/** Options of `GameSession`. */
export interface GameSessionOptions<V, M> {
  /** Carries the requests (see `SessionTransport`). */
  readonly transport: SessionTransport<M>;
  /** What a refusal, a lost answer or a state from elsewhere does to the queue (module comment). */
  readonly queue: 'rollback' | 'keep';
  /** Shows some requests before their answer (optional). */
  readonly optimistic?: {
    /** Whether `request` is shown at once (the web: pile moves; not draws, whose card is hidden). */
    shows(request: SessionRequest<M>): boolean;
    /** The view after `move`, or null when it does not apply (then it and what follows are not shown). */
    apply(view: V, move: M): V | null;
  };
  /** The clock of `inFlight.sentAt`, ms (default Date.now). */
  readonly now?: () => number;
  /** The prefix of request ids (default `r`). */
  readonly idPrefix?: string;
}

/** A queued request with its bookkeeping. */
interface Entry<V, M> extends SessionRequest<M> {
  /** The version the caller asked for, else the confirmed one when it leaves. */
  readonly atVersion: number | undefined;
  /** The version it was sent at (undefined: not sent yet). */
  sentVersion: number | undefined;
  sentAt: number;
  resent: boolean;
  /** Its answer was lost with the connection: it waits for a resync (`keep`). */
  lost: boolean;
  /** Refused as stale: it settles after the resync (`keep`). */
  stale: SessionRefusal | null;
  readonly settle: ((outcome: RequestOutcome<V>) => void) | undefined;
}

/** Codes of a refusal after which the state held is not the server's: the session resyncs. */
const RESYNC_CODES = new Set(['stale-version', 'not-subscribed']);

/** One game's session (module comment). `V` is the view type, `M` the move type. */
export class GameSession<V, M> {
  private state: ConfirmedState<V> | null = null;
  private entries: Entry<V, M>[] = [];
  private shown: V | null = null;
  private readonly changeListeners = new Set<() => void>();
  private readonly eventListeners = new Set<(event: SessionEvent<V, M>) => void>();
  private nextId = 1;
  private readonly now: () => number;
  private readonly idPrefix: string;

  constructor(private readonly options: GameSessionOptions<V, M>) {
    this.now = options.now ?? Date.now;
    this.idPrefix = options.idPrefix ?? 'r';
  }

  /** The state the server last confirmed (null before the first). */
  get confirmed(): ConfirmedState<V> | null {
    return this.state;
  }

  /** The confirmed version, or -1 before the first state. */
  get version(): number {
    return this.state?.version ?? -1;
  }

  /** The view to show: the confirmed one with the shown requests applied (null before the first state). */
  get view(): V | null {
    return this.shown;
  }

  /** The queue, head first (the head may be in flight). */
  get pending(): readonly SessionRequest<M>[] {
    return this.entries;
  }

  /** The head when it is in flight, with when it left (ms of `now`); else null. */
  get inFlight(): (SentRequest<M> & { readonly sentAt: number }) | null {
    const head = this.entries[0];
    if (head?.sentVersion === undefined) return null;
    return { ...this.publicOf(head), version: head.sentVersion, resent: head.resent, sentAt: head.sentAt };
  }

  /** Whether a request that is not shown optimistically is queued (then further input waits). */
  get busy(): boolean {
    const o = this.options.optimistic;
    return this.entries.some((e) => !o || !o.shows(e));
  }

  /** Calls `listener` after every change of the confirmed state or the queue; returns what removes it. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Calls `listener` with every event (acknowledged, state, refused, rolled-back); returns what removes it. */
  onEvent(listener: (event: SessionEvent<V, M>) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Starts over at `state` (another game, or none): the queue is dropped (its requests settle as `cancelled`).
   */
  reset(state: ConfirmedState<V> | null): void {
    const dropped = this.entries;
    this.entries = [];
    this.state = state;
    this.settleDropped(dropped, { code: 'cancelled', message: 'the session started over' });
    this.changed();
  }

  /**
   * Queues a request made on the version held (or `options.version`) and sends it when it is its turn.
   * `settle` is called once with its outcome. Returns the request (its id is what the answer names).
   */
  request(
    kind: RequestKind,
    move: M | undefined,
    options: { version?: number; settle?: (outcome: RequestOutcome<V>) => void } = {},
  ): SessionRequest<M> {
    const entry: Entry<V, M> = {
      requestId: `${this.idPrefix}${this.nextId++}`,
      kind,
      move,
      atVersion: options.version,
      sentVersion: undefined,
      sentAt: 0,
      resent: false,
      lost: false,
      stale: null,
      settle: options.settle,
    };
    this.entries.push(entry);
    this.changed();
    this.flush();
    return this.publicOf(entry);
  }

  /**
   * A state from the server: the answer to the request `requestId` names, a resync's (`resync`: taken even
   * when older, and it settles a head whose answer was lost), or a state the session did not ask for (taken
   * when newer). Returns whether it was taken.
   */
  receive(state: ConfirmedState<V>, meta: { requestId?: string; resync?: boolean } = {}): boolean {
    const head = this.entries[0];
    const before = this.state?.view ?? null;
    if (head && head.sentVersion !== undefined && meta.requestId === head.requestId && !head.lost) {
      this.entries.shift();
      if (!this.state || state.version >= this.state.version) this.state = state;
      const outcome = { ok: true as const, state: this.state };
      this.changed();
      head.settle?.(outcome);
      this.emit({ type: 'acknowledged', request: this.publicOf(head), before, state: this.state });
      this.flush();
      return true;
    }
    if (meta.resync === true) {
      this.state = state;
      if (this.options.queue === 'rollback') this.dropAll(null);
      else this.settleAfterResync();
      this.changed();
      this.emit({ type: 'state', resync: true, before, state });
      this.flush();
      return true;
    }
    if (this.state && state.version <= this.state.version) return false;
    this.state = state;
    if (this.options.queue === 'rollback' && this.entries.length > 0) {
      const ours = meta.requestId !== undefined && this.entries.some((e) => e.requestId === meta.requestId);
      if (!ours) this.dropAll(null);
    }
    this.changed();
    this.emit({ type: 'state', resync: false, before, state });
    this.flush();
    return true;
  }

  /**
   * The server refused request `requestId` (only the head in flight counts; other ids are ignored and
   * false returned). Resyncs when the refusal says the state held is not the server's.
   */
  refuse(requestId: string, refusal: SessionRefusal): boolean {
    const head = this.entries[0];
    if (!head || head.sentVersion === undefined || head.requestId !== requestId || head.lost) return false;
    const resync =
      RESYNC_CODES.has(refusal.code) ||
      (refusal.version !== undefined && refusal.version !== this.state?.version);
    if (this.options.queue === 'keep' && refusal.code === 'stale-version') {
      // Settles after the resync: a re-sent request refused as stale was applied by its first copy.
      head.stale = refusal;
      head.lost = true;
      this.options.transport.resync();
      return true;
    }
    if (this.options.queue === 'keep') {
      this.entries.shift();
      this.changed();
      head.settle?.({ ok: false, refusal });
      this.emit({ type: 'refused', request: this.publicOf(head), refusal });
    } else {
      this.entries.shift();
      head.settle?.({ ok: false, refusal });
      this.emit({ type: 'refused', request: this.publicOf(head), refusal });
      this.dropAll(head);
      this.changed();
    }
    if (resync) this.options.transport.resync();
    this.flush();
    return true;
  }

  /**
   * The answer of the request in flight was lost (the connection closed). `rollback`: the queue is dropped
   * and a resync asked; `keep`: the head waits for the next resync (`receive(…, {resync: true})`).
   */
  lost(): void {
    const head = this.entries[0];
    if (!head || head.sentVersion === undefined) return;
    if (this.options.queue === 'keep') {
      head.lost = true;
      return;
    }
    this.dropAll(null);
    this.changed();
    this.options.transport.resync();
  }

  /** Drops the whole queue (the caller gave up waiting: its optimistic moves roll back). */
  rollback(): void {
    if (this.entries.length === 0) return;
    this.dropAll(null);
    this.changed();
  }

  /** Settles every queued request with `refusal` and empties the queue (the connection closed for good). */
  abort(refusal: SessionRefusal): void {
    const dropped = this.entries;
    this.entries = [];
    this.settleDropped(dropped, refusal);
    this.changed();
  }

  /** Sends the head when it is not in flight and the transport can take it (after the transport came back). */
  flush(): void {
    const head = this.entries[0];
    // A head in flight waits for its answer; a lost one (or one refused as stale) for the resync.
    if (!head || !this.state || head.sentVersion !== undefined || head.lost) return;
    const version = head.atVersion ?? this.state.version;
    const sent: SentRequest<M> = { ...this.publicOf(head), version, resent: head.resent };
    head.sentVersion = version;
    head.sentAt = this.now();
    if (!this.options.transport.send(sent)) head.sentVersion = undefined;
  }

  // ---------- inside ----------

  /** After a resync (`keep`): a lost head is sent again (not applied) or resolves (applied); see above. */
  private settleAfterResync(): void {
    const head = this.entries[0];
    const state = this.state;
    if (!head || !head.lost || head.sentVersion === undefined || !state) return;
    if (head.stale) {
      this.entries.shift();
      if (head.resent && state.version > head.sentVersion) head.settle?.({ ok: true, state });
      else {
        head.settle?.({ ok: false, refusal: head.stale });
        this.emit({ type: 'refused', request: this.publicOf(head), refusal: head.stale });
      }
      return;
    }
    if (state.version === head.sentVersion) {
      head.lost = false;
      head.resent = true;
      head.sentVersion = undefined; // flush sends it again at the same version
      return;
    }
    this.entries.shift();
    head.settle?.({ ok: true, state });
  }

  /** Empties the queue (`except` was settled already); the others settle as `cancelled`. */
  private dropAll(except: Entry<V, M> | null): void {
    const dropped = this.entries.filter((e) => e !== except);
    this.entries = [];
    this.settleDropped(dropped, { code: 'cancelled', message: 'rolled back' });
    if (dropped.length > 0 || except)
      this.emit({
        type: 'rolled-back',
        requests: [...(except ? [except] : []), ...dropped].map((e) => this.publicOf(e)),
      });
  }

  private settleDropped(dropped: readonly Entry<V, M>[], refusal: SessionRefusal): void {
    for (const e of dropped) e.settle?.({ ok: false, refusal });
  }

  private publicOf(e: Entry<V, M>): SessionRequest<M> {
    return { requestId: e.requestId, kind: e.kind, move: e.move };
  }

  /** Recomputes the shown view and tells the change listeners. */
  private changed(): void {
    this.shown = this.showView();
    for (const l of this.changeListeners) l();
  }

  private showView(): V | null {
    const o = this.options.optimistic;
    if (!this.state) return null;
    let v: V = this.state.view;
    if (!o) return v;
    for (const e of this.entries) {
      if (!o.shows(e) || e.move === undefined) break;
      const next = o.apply(v, e.move);
      if (next === null) break;
      v = next;
    }
    return v;
  }

  private emit(event: SessionEvent<V, M>): void {
    for (const l of this.eventListeners) l(event);
  }
}
