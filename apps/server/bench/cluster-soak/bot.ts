/** The cluster soak's bot players: what they read, what they share with the run, and the bot itself. */
import WebSocket from 'ws';
import { rawText } from '../server-bench/format.js';
import {
  ANSWER_TIMEOUT_MS,
  BURST_MOVE_MS,
  GAME_MOVES,
  HUMAN_MOVE_MS,
  MIDNIGHT,
  OPEN_OVER,
  sleep,
} from './settings.js';

/** The soak's phases, by which the move answer times are kept apart. */
export type Phase = 'ramp' | 'quiet' | 'burst' | 'kill-window' | 'after-restart';

/** The frames a bot reads: only the fields it uses. */
export interface Frame {
  readonly type: string;
  readonly code?: string;
  readonly requestId?: string;
  readonly gameId?: string;
  readonly version?: number;
  readonly cause?: string;
  readonly view?: { readonly stock: { readonly count: number }; readonly status: string };
  /** A `daily-opened` frame's game. */
  readonly game?: GameResponse;
}

/** A game as `POST /api/games` and the daily attempt answer it. */
export interface GameResponse {
  readonly id: string;
  readonly version: number;
  readonly view: { readonly stock: { readonly count: number }; readonly status: string };
}

/** The game a bot plays now, as its last answer said. */
export interface BotGame {
  readonly id: string;
  version: number;
  stock: number;
  playing: boolean;
  /** Moves this bot made in it. */
  played: number;
}

/** A REST call through nginx (retried while the request is cut or nginx answers 502/503); the answer's JSON. */
/**
 * A request through nginx, retried while nothing answered it (a cut connection, 502, 503 `overloaded` after
 * its Retry-After); `refused` hears every answer that is not 2xx (status, error code) before it is retried or
 * thrown. Throws on any other refusal.
 */
export type Api = <T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  refused?: (status: number, code: string) => void,
) => Promise<T>;

/** What the bots share with the run: the way in, the day, the run's phase, and what they count. */
export interface Soak {
  /** nginx's base URL (`http://127.0.0.1:<port>`). */
  readonly proxyUrl: string;
  /** Today's date (the daily's `YYYY-MM-DD`). */
  readonly today: string;
  readonly api: Api;
  phase: Phase;
  /** The bots stop at their next turn. */
  stop: boolean;
  /** Midnight has come: open today's daily, play at the burst pace. */
  burst: boolean;
  /**
   * Resolves at midnight, when `burst` is set: in the midnight soak (MIDNIGHT) every bot waiting for its turn
   * wakes then and opens the daily at once.
   */
  readonly midnight: Promise<void>;
  /**
   * Daily openings refused, retried ones included: by HTTP status and error code (`503 overloaded`) over
   * REST, by `frame <code>` over the socket.
   */
  readonly openingRefusals: Map<string, number>;
  /** Bots whose opening was answered (201, or `daily-opened`), and the game each got. */
  readonly opened: Map<number, string>;
  /** Move answer times (ms) by the phase they were sent in. */
  readonly latency: Record<Phase, number[]>;
  /** Daily openings' answer times (ms). */
  readonly openings: number[];
  /** Error frames by code. */
  readonly errorFrames: Map<string, number>;
  /** Highest version acknowledged to a bot, by game id: what must be stored. */
  readonly acked: Map<string, number>;
  /** Moves answered with a `state` frame. */
  moves: number;
  /** Move answers lost (socket closed, or nothing within ANSWER_TIMEOUT_MS). */
  lostAnswers: number;
  /** Lost answers whose move turned out applied (the version moved on). */
  lostApplied: number;
  /** Lost answers whose move was not applied (sent again). */
  lostResent: number;
  /** Sockets opened again after one was lost. */
  reconnects: number;
  /** Sockets open now. */
  openSockets: number;
}

/** One bot: an account, a socket through nginx, a game at a time. */
export class Bot {
  private ws: WebSocket | null = null;
  private game: BotGame | null = null;
  private token = '';
  /** This bot's daily attempt was opened. */
  private ranked = false;
  private readonly pending = new Map<string, (frame: Frame | null) => void>();
  private seq = 0;

  /** Bot number `i` (its name `bot <i>`) of the run `soak`. */
  constructor(
    private readonly soak: Soak,
    private readonly i: number,
  ) {}

  async run(): Promise<void> {
    this.token = (
      await this.soak.api<{ token: string }>('POST', '/api/players', { name: `bot ${this.i}`, bot: true })
    ).token;
    await this.connect();
    await this.newGame();
    let wasBurst = this.soak.burst;
    while (!this.soak.stop) {
      const turn = sleep((this.soak.burst ? BURST_MOVE_MS : HUMAN_MOVE_MS) * (0.5 + Math.random()));
      await (MIDNIGHT && !wasBurst ? Promise.race([turn, this.soak.midnight]) : turn);
      if (this.soak.stop) break;
      const g = this.current();
      if (this.soak.burst && !wasBurst) {
        // Midnight: everyone opens today's daily at once.
        wasBurst = true;
        await this.newGame();
      } else if (!g.playing || g.played >= GAME_MOVES) {
        if (g.playing) await this.resign(g);
        await this.newGame();
      } else await this.move(g);
    }
    this.ws?.close();
  }

  private current(): BotGame {
    if (this.game === null) throw new Error(`bot ${this.i} has no game`);
    return this.game;
  }

  private async move(g: BotGame): Promise<void> {
    const move = g.stock > 0 ? { type: 'draw' } : { type: 'recycle' };
    const rid = `${this.i}-${++this.seq}`;
    const sentPhase = this.soak.phase;
    const t0 = performance.now();
    const f = await this.ask(rid, { type: 'move', gameId: g.id, move, version: g.version, requestId: rid });
    if (f === null) {
      // The answer was lost with the socket (or never came): settle it by the version rule.
      this.soak.lostAnswers++;
      const before = g.version;
      await this.resync();
      if (g.version > before) this.soak.lostApplied++;
      else this.soak.lostResent++; // the next turn sends it again at the same version
      return;
    }
    if (f.type === 'state' && f.version !== undefined && f.view !== undefined) {
      this.soak.latency[sentPhase].push(performance.now() - t0);
      g.version = f.version;
      g.stock = f.view.stock.count;
      g.playing = f.view.status === 'playing';
      g.played++;
      this.soak.acked.set(g.id, f.version);
      this.soak.moves++;
      return;
    }
    const code = f.code ?? f.type;
    this.soak.errorFrames.set(code, (this.soak.errorFrames.get(code) ?? 0) + 1);
    if (code === 'overloaded') await sleep(1000);
    else await this.resync();
  }

  private async resign(g: BotGame): Promise<void> {
    const rid = `${this.i}-${++this.seq}`;
    const f = await this.ask(rid, { type: 'resign', gameId: g.id, version: g.version, requestId: rid });
    if (f?.type === 'state' && f.version !== undefined) this.soak.acked.set(g.id, f.version);
    else if (f === null) await this.resync();
  }

  private async connect(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const socket = new WebSocket(`${this.soak.proxyUrl.replace('http', 'ws')}/api/ws`);
      const opened = await new Promise<boolean>((res) => {
        socket.once('open', () => res(true));
        socket.once('error', () => res(false));
      });
      if (!opened) {
        if (attempt >= 40) throw new Error(`bot ${this.i}: no socket after ${attempt} tries`);
        await sleep(250 + Math.random() * 500);
        continue;
      }
      this.ws = socket;
      this.soak.openSockets++;
      socket.on('message', (data) => {
        const f = JSON.parse(rawText(data)) as Frame;
        const key =
          f.type === 'authed'
            ? 'auth'
            : f.type === 'state' && f.cause === 'subscribe'
              ? `sub:${f.gameId}`
              : f.requestId;
        if (key !== undefined) this.pending.get(key)?.(f);
      });
      socket.once('close', () => {
        this.soak.openSockets--;
        if (this.ws === socket) this.ws = null;
        for (const settle of [...this.pending.values()]) settle(null);
      });
      const authed = await this.ask('auth', { type: 'auth', token: this.token });
      if (authed === null) continue; // closed again at once: try another connection
      if (authed.type !== 'authed') throw new Error(`bot ${this.i}: auth answered ${JSON.stringify(authed)}`);
      return;
    }
  }

  /** Sends `frame` and waits for the answer keyed `key`; null when the socket closed or nothing came. */
  private ask(key: string, frame: object): Promise<Frame | null> {
    return new Promise((res) => {
      const socket = this.ws;
      if (socket === null || socket.readyState !== WebSocket.OPEN) return res(null);
      const settle = (f: Frame | null) => {
        clearTimeout(timer);
        this.pending.delete(key);
        res(f);
      };
      const timer = setTimeout(() => settle(null), ANSWER_TIMEOUT_MS);
      this.pending.set(key, settle);
      socket.send(JSON.stringify(frame));
    });
  }

  /** Subscribes to the current game (again) and takes its version as the server holds it. */
  private async subscribe(): Promise<boolean> {
    const g = this.current();
    const f = await this.ask(`sub:${g.id}`, { type: 'subscribe', gameId: g.id });
    if (f === null || f.type !== 'state' || f.view === undefined || f.version === undefined) return false;
    g.version = f.version;
    g.stock = f.view.stock.count;
    g.playing = f.view.status === 'playing';
    return true;
  }

  /** A socket (a new one through nginx if the old one is gone) subscribed to the current game. */
  private async resync(): Promise<void> {
    for (;;) {
      if (this.ws === null) {
        this.soak.reconnects++;
        await this.connect();
      }
      if (await this.subscribe()) return;
      this.ws?.terminate();
      this.ws = null;
    }
  }

  /**
   * Today's ranked attempt over the socket (`daily-attempt`): the game, already followed by this socket; null
   * when it was opened before (a first frame whose answer was lost: `conflict`). `overloaded` is sent again
   * after a second; a lost answer after a new socket (the frame may have opened it: then `conflict`).
   */
  private async openOverSocket(): Promise<GameResponse | null> {
    for (;;) {
      const rid = `${this.i}-${++this.seq}`;
      const f = await this.ask(rid, {
        type: 'daily-attempt',
        date: this.soak.today,
        preset: 'classic-draw1',
        requestId: rid,
      });
      if (f?.type === 'daily-opened' && f.game !== undefined) return f.game;
      if (f === null) {
        if (this.ws === null) {
          this.soak.reconnects++;
          await this.connect();
        }
        continue;
      }
      const key = `frame ${f.code ?? f.type}`;
      this.soak.openingRefusals.set(key, (this.soak.openingRefusals.get(key) ?? 0) + 1);
      if (f.code === 'conflict') return null;
      if (f.code !== 'overloaded')
        throw new Error(`bot ${this.i}: daily-attempt answered ${JSON.stringify(f)}`);
      await sleep(1000);
    }
  }

  /** The next game: today's daily attempt at midnight, else a casual Draw 1 game. */
  private async newGame(): Promise<void> {
    const t0 = performance.now();
    let g: GameResponse | null = null;
    if (this.soak.burst && !this.ranked && OPEN_OVER === 'socket') {
      this.ranked = true;
      g = await this.openOverSocket();
      if (g !== null) {
        this.soak.openings.push(performance.now() - t0);
        this.soak.opened.set(this.i, g.id);
        // Already followed by this socket: no subscribe.
        if (this.game !== null) this.ws?.send(JSON.stringify({ type: 'unsubscribe', gameId: this.game.id }));
        this.game = { id: g.id, version: g.version, stock: g.view.stock.count, playing: true, played: 0 };
        this.soak.acked.set(g.id, g.version);
        return;
      }
    }
    if (this.soak.burst && !this.ranked) {
      this.ranked = true;
      // 409: a first try whose answer was lost with the killed node did open it; play a casual game then.
      g = await this.soak
        .api<GameResponse>(
          'POST',
          `/api/daily/${this.soak.today}/classic-draw1/attempt`,
          undefined,
          this.token,
          (status, code) => {
            const key = `${status} ${code}`;
            this.soak.openingRefusals.set(key, (this.soak.openingRefusals.get(key) ?? 0) + 1);
          },
        )
        .catch((e: unknown) => {
          if (e instanceof Error && / 409 /.test(e.message)) return null;
          throw e;
        });
      if (g !== null) {
        this.soak.openings.push(performance.now() - t0);
        this.soak.opened.set(this.i, g.id);
      }
    }
    g ??= await this.soak.api<GameResponse>('POST', '/api/games', { preset: 'classic-draw1' }, this.token);
    if (this.game !== null) this.ws?.send(JSON.stringify({ type: 'unsubscribe', gameId: this.game.id }));
    this.game = { id: g.id, version: g.version, stock: g.view.stock.count, playing: true, played: 0 };
    this.soak.acked.set(g.id, g.version);
    if (!(await this.subscribe())) await this.resync();
  }
}
