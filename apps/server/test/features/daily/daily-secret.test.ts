/**
 * Issue 53 item 9(c): DAILY_SECRET carries at least 32 bytes of entropy. Commitments to the dailies a day
 * ahead let anyone test guesses of the secret offline, so the attacker here is an operator's weak choice
 * that such a search would find: too short, one repeated character, a repeated pattern, a run of the
 * alphabet, or the placeholder of .env.example. Each is refused at start-up with an error that names
 * DAILY_SECRET and says how to make one; secrets made as the docs say are taken.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/edge/config.js';

const ROOT = resolve(import.meta.dirname, '../../../../..');

/** The DAILY_SECRET line of .env.example (the placeholder an operator may forget to replace). */
function examplePlaceholder(): string {
  const line = readFileSync(resolve(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('DAILY_SECRET='));
  return (line ?? '').slice('DAILY_SECRET='.length);
}

const refused = (secret: string) => () => loadConfig({ DAILY_SECRET: secret });

describe('DAILY_SECRET strength', () => {
  it('a secret of 16 to 42 characters, enough before, is refused', () => {
    expect(refused('k3Rq9vTz1XwP8mLa')).toThrow(/DAILY_SECRET/);
    expect(refused(randomBytes(31).toString('base64url').slice(0, 42))).toThrow(/DAILY_SECRET/);
    expect(refused(randomBytes(31).toString('hex'))).toThrow(/DAILY_SECRET/);
  });

  it('long secrets of low entropy are refused: one character, a pattern, the alphabet in order', () => {
    expect(refused('a'.repeat(64))).toThrow(/DAILY_SECRET/);
    expect(refused('0'.repeat(64))).toThrow(/DAILY_SECRET/);
    expect(refused('0123456789abcdef'.repeat(4))).toThrow(/DAILY_SECRET/);
    expect(refused('abAB'.repeat(16))).toThrow(/DAILY_SECRET/);
    expect(refused('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')).toThrow(/DAILY_SECRET/);
    expect(refused('my daily secret is a nice long sentence of words')).toThrow(/DAILY_SECRET/);
  });

  it(".env.example's placeholder is refused, so a deploy that forgot to replace it does not start", () => {
    const placeholder = examplePlaceholder();
    expect(placeholder.length).toBeGreaterThan(0);
    expect(refused(placeholder)).toThrow(/DAILY_SECRET/);
  });

  it('the refusal says how to make a good one', () => {
    expect(refused('x'.repeat(80))).toThrow(/openssl rand -base64 32/);
  });

  it('secrets made as the docs say are taken: openssl rand -base64 32 / -hex 32, node crypto', () => {
    for (let i = 0; i < 200; i++) {
      const base64 = randomBytes(32).toString('base64');
      expect(loadConfig({ DAILY_SECRET: base64 }).dailySecret).toBe(base64);
      const hex = randomBytes(32).toString('hex');
      expect(loadConfig({ DAILY_SECRET: hex }).dailySecret).toBe(hex);
      const url = randomBytes(32).toString('base64url');
      expect(loadConfig({ DAILY_SECRET: url }).dailySecret).toBe(url);
    }
  });

  it('unset or empty: the server makes its own random secret (as before)', () => {
    expect(loadConfig({}).dailySecret).toBeUndefined();
    expect(loadConfig({ DAILY_SECRET: '' }).dailySecret).toBeUndefined();
  });
});
