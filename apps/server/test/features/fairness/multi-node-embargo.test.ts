/**
 * No oracle on any node (issue 53, item 3): two real server processes on one Postgres schema and one Redis. A
 * race made on node A is embargoed on node B with the same answer for every arrangement of its face-down
 * cards, and the solver allowance (typed-deal games and solves together) is counted once for the cluster, so
 * spreading the probes over the nodes buys nothing. Needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both).
 */
import { ErrorBodySchema, PlayerCreatedSchema, RaceSchema } from '@klondike/protocol';
import { dealFromNumber, formatDeal } from '@klondike/rules';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSchemaParam } from '../../../src/infra/db/database.js';
import { faceDownArrangements } from '../../support/embargo-helpers.js';
import { MULTI_NODE_SKIP, type NodePair, startPair } from '../../support/multi-node-harness.js';
import type { ServerProcess } from '../../support/processes.js';

const SKIP = MULTI_NODE_SKIP;
/** The solver allowance per client per minute in the test. */
const SOLVE_LIMIT = 4;

/** Every node's settings on top of the harness's quiet defaults. */
const ENV = {
  TRUST_PROXY: 'true', // each request speaks as the client address it names (X-Forwarded-For)
  RATE_LIMIT_MAX: '100000',
  SOLVE_RATE_MAX: String(SOLVE_LIMIT),
  PLAYER_CREATE_RATE_MAX: '100',
};

/** A request to `node` as client `address` (with a player token when given). */
async function call(
  node: ServerProcess,
  method: string,
  path: string,
  address: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${node.base}${path}`, {
    method,
    headers: {
      'x-forwarded-for': address,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, json: await r.json() };
}

/** Status and error code (with message) of an answer. */
function answer(r: { status: number; json: unknown }): string {
  const e = ErrorBodySchema.safeParse(r.json);
  return e.success ? `${r.status} ${e.data.error.code}: ${e.data.error.message}` : String(r.status);
}

const deal = (n: number): string => {
  const d = dealFromNumber(n);
  if (!d.ok) throw new Error(`deal ${n}`);
  return formatDeal(d.value);
};

describe.skipIf(SKIP !== null)(`the embargo across nodes${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let pair: NodePair;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    pair = await startPair({ env: ENV });
    ({ a, b } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.stop();
  });

  /** The stored deal of race `code` (what the test knows and the attacker does not). */
  async function raceDeal(code: string): Promise<string> {
    const { url, schema } = splitSchemaParam(pair.databaseUrl);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const r = await client.query<{ deal: string }>(
        `SELECT deal FROM "${schema ?? 'public'}"."Race" WHERE code = $1`,
        [code],
      );
      return r.rows[0]?.deal ?? '';
    } finally {
      await client.end();
    }
  }

  it('a race made on A: every arrangement of its face-down cards gets the same answer on A and on B', async () => {
    const made = await call(a, 'POST', '/api/players', '10.60.0.1', {
      name: `host${pair.redisPrefix.slice(5, 11)}`,
    });
    expect(made.status).toBe(201);
    const host = PlayerCreatedSchema.parse(made.json);
    const created = await call(a, 'POST', '/api/races', '10.60.0.1', {}, host.token);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const code = RaceSchema.parse(created.json).code;
    const guesses = faceDownArrangements(await raceDeal(code));

    const answers: string[] = [];
    let client = 0;
    for (const guess of guesses)
      for (const node of [a, b]) {
        // A client address per request: the allowance is not what is tested here.
        answers.push(answer(await call(node, 'POST', '/api/games', `10.61.0.${++client}`, { deal: guess })));
        answers.push(
          answer(
            await call(node, 'POST', '/api/solve', `10.61.0.${++client}`, { deal: guess, timeLimitMs: 50 }),
          ),
        );
      }
    expect(answers[0]).toMatch(/^403 deal-embargoed: /);
    expect(answers).toEqual(answers.map(() => answers[0]));
    // An unrelated deal is served on either node.
    expect((await call(b, 'POST', '/api/games', '10.61.1.1', { deal: deal(33) })).status).toBe(201);
  });

  it('the solver allowance is counted once for the cluster: typed deals and solves on A and B together', async () => {
    const me = '10.62.0.1';
    const statuses = [
      (await call(a, 'POST', '/api/games', me, { deal: deal(41) })).status,
      (await call(b, 'POST', '/api/solve', me, { deal: deal(42), timeLimitMs: 50 })).status,
      (await call(b, 'POST', '/api/games', me, { deal: deal(43) })).status,
      (await call(a, 'POST', '/api/solve', me, { deal: deal(44), timeLimitMs: 50 })).status,
    ];
    expect(statuses).toEqual([201, 200, 201, 200]);
    expect(SOLVE_LIMIT).toBe(statuses.length);
    for (const node of [a, b]) {
      const over = await call(node, 'POST', '/api/games', me, { deal: deal(45) });
      expect(over.status).toBe(429);
      expect(ErrorBodySchema.parse(over.json).error.code).toBe('rate-limited');
    }
    // Another client is unaffected.
    expect((await call(b, 'POST', '/api/games', '10.62.0.2', { deal: deal(46) })).status).toBe(201);
  });
});
