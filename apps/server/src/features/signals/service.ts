/**
 * Computing the fair-play signals of ended rated games, off the move path (docs/fair-play.md "Signals"):
 * a pass finds ended rated games without a `GameSignals` row (repository.ts `pending`, bounded), sends each
 * to a background solver thread (task `signals`, priority `signals`: after every interactive job, so a hint
 * never waits for it), stores its row and the flags it passes (thresholds.ts), then the account rules over
 * the player's recent games. Passes run at start-up, every SIGNALS_SWEEP_MS, and soon after a nudge (a
 * rated game ended on this node); one pass at a time per node. Several nodes may compute the same game:
 * the row is written once (the insert skips an existing row) and its flags with it.
 */
import { MoveSchema } from '@klondike/protocol';
import { type GameOptions, parseDeal } from '@klondike/rules';
import { gameOptionsOf } from '../../infra/db/game-options.js';
import type { SolverPool } from '../solve/task.js';
import { type GameAnalysis, NO_SOLVER_SIGNALS, type TimedAction } from './analysis.js';
import { DEFAULT_SIGNAL_BUDGET } from './positions.js';
import { thinkTime } from './think-time.js';
import type { FlagRow, GameForSignals, SignalsRepository } from './repository.js';
import { MIN_AGREEMENT_CHOICES, THRESHOLDS, binomialTail, flagsOf, isSuspect } from './thresholds.js';
import { CoalescingPass } from '../../core/coalescing-pass.js';

/** Only games created this recently are looked for (ms): 30 days. */
export const SIGNALS_LOOKBACK_MS = 30 * 86_400_000;

/** What the service needs. */
export interface SignalsServiceOptions {
  readonly repository: SignalsRepository;
  readonly solver: SolverPool;
  /** Server time, ms since the epoch. */
  readonly now: () => number;
  /** Games a pass computes at most. */
  readonly batch: number;
  /** Node budget of one solve (0: no solver-dependent signals). */
  readonly solveNodes: number;
  /** Logs a failure (a game whose signals could not be computed is retried by a later pass). */
  readonly warn: (msg: string, err: unknown) => void;
}

/** The log of a stored game as the analysis reads it (a move entry that does not parse ends it). */
export function timedLogOf(game: Pick<GameForSignals, 'log'>): TimedAction[] {
  const out: TimedAction[] = [];
  for (const e of game.log) {
    if (e.kind !== 'move') {
      out.push({ kind: e.kind, at: e.at });
      continue;
    }
    const m = MoveSchema.safeParse(e.move);
    if (!m.success) break;
    out.push({ kind: 'move', move: m.data, at: e.at });
  }
  return out;
}

/**
 * The signals of a game from its log's times alone (every move entry counted: without a replay the
 * auto-completion moves cannot be told apart), no solver signal.
 */
export function timesOnly(game: Pick<GameForSignals, 'log'>): GameAnalysis {
  const time = thinkTime(game.log.filter((e) => e.kind === 'move').map((e) => ({ at: e.at })));
  return { ...time, ...NO_SOLVER_SIGNALS };
}

/** Computes and stores the signals of ended rated games (see the module comment). */
export class SignalsService {
  private readonly passes = new CoalescingPass(() => this.pass());

  constructor(private readonly opts: SignalsServiceOptions) {}

  /**
   * One pass (or, while one runs, another right after it): computes the signals of up to `batch` pending
   * games. Resolves with the number of rows this node wrote. Errors: database errors reject; a game whose
   * analysis fails is logged and left for a later pass.
   */
  sweep(): Promise<number> {
    return this.passes.run();
  }

  /** Resolves once no pass is running. */
  idle(): Promise<void> {
    return this.passes.idle();
  }

  private async pass(): Promise<number> {
    const { repository, batch } = this.opts;
    const pending = await repository.pending(batch, new Date(this.opts.now() - SIGNALS_LOOKBACK_MS));
    const games = await repository.games(pending);
    let written = 0;
    for (const game of games) {
      try {
        if (await this.compute(game)) written++;
      } catch (err) {
        this.opts.warn(`signals of game ${game.gameId} failed`, err);
      }
    }
    return written;
  }

  /** Computes, stores and flags one game. Returns whether this call wrote its row. */
  private async compute(game: GameForSignals): Promise<boolean> {
    let a: GameAnalysis;
    try {
      a = await this.analyse(game);
    } catch (err) {
      // A game the analysis cannot read (or a solver thread that failed) still gets its row, from its log's
      // times alone: a retry would fail again, and the oldest games would block every later pass.
      this.opts.warn(`signals of game ${game.gameId}: the analysis failed, think-time only`, err);
      a = timesOnly(game);
    }
    const solverAgreement = a.agreementMoves >= MIN_AGREEMENT_CHOICES ? a.solverAgreement : null;
    const passed = flagsOf({ ...a, solverAgreement }, game.bot);
    const flags: FlagRow[] = passed.map((p) => ({
      reason: p.reason,
      gameId: game.gameId,
      evidence: { ...p.evidence, kind: game.kind },
    }));
    const wrote = await this.opts.repository.store(
      {
        gameId: game.gameId,
        playerId: game.playerId,
        kind: game.kind,
        moves: a.moves,
        medianGapMs: a.medianGapMs,
        fastShare: a.fastShare,
        gapVariation: a.gapVariation,
        solverAgreement,
        hiddenChoices: a.hiddenChoices,
        hiddenHits: a.hiddenHits,
        flags: passed.map((p) => p.reason),
        computedAt: new Date(this.opts.now()),
      },
      flags,
    );
    if (wrote) await this.accountRules(game.playerId, game.bot);
    return wrote;
  }

  /** The analysis of one game on a background solver thread. Errors: an unreadable deal or options; a failed job. */
  private async analyse(game: GameForSignals): Promise<GameAnalysis> {
    const deal = parseDeal(game.deal);
    if (!deal.ok) throw new Error(`unreadable deal: ${deal.error.message}`);
    const options: GameOptions = gameOptionsOf(game, `game ${game.gameId}`);
    const budget =
      this.opts.solveNodes === 0
        ? { ...DEFAULT_SIGNAL_BUDGET, agreementSolves: 0, hiddenSolves: 0 }
        : { ...DEFAULT_SIGNAL_BUDGET, nodesPerSolve: this.opts.solveNodes };
    const outcome = await this.opts.solver.run(
      { kind: 'signals', deal: deal.value, options, log: timedLogOf(game), budget },
      { priority: 'signals', label: `signals ${game.gameId}` },
    );
    if (outcome.signals === undefined) throw new Error('the solver task returned no signals');
    return outcome.signals;
  }

  /**
   * The account rules over the player's latest rated games: `repeated-signals` (a human's games past the
   * softer lines) and `hidden-knowledge` summed over its games (bots too: nobody may see face-down cards).
   */
  private async accountRules(playerId: string, bot: boolean): Promise<void> {
    const repeated = THRESHOLDS['repeated-signals'];
    const hidden = THRESHOLDS['hidden-knowledge'];
    const recent = await this.opts.repository.recent(
      playerId,
      Math.max(repeated.lastGames, hidden.accountGames),
    );
    const flags: FlagRow[] = [];
    const last = recent.slice(0, repeated.lastGames);
    const suspect = last.filter(isSuspect);
    if (!bot && suspect.length >= repeated.minGames)
      flags.push({
        reason: 'repeated-signals',
        gameId: null,
        evidence: {
          games: suspect.map((s) => s.gameId),
          of: last.length,
          medianGapMs: repeated.medianGapMs,
          minAgreement: repeated.minAgreement,
        },
      });
    const games = recent.slice(0, hidden.accountGames);
    const choices = games.reduce((n, g) => n + g.hiddenChoices, 0);
    const hits = games.reduce((n, g) => n + g.hiddenHits, 0);
    const tail = binomialTail(hits, choices, hidden.nullHitRate);
    if (choices >= hidden.minChoices && tail < hidden.maxTail)
      flags.push({
        reason: 'hidden-knowledge',
        gameId: null,
        evidence: { games: games.length, choices, hits, tail, threshold: hidden.maxTail },
      });
    if (flags.length > 0) await this.opts.repository.raise(playerId, flags);
  }
}
