/**
 * Seeds a player with finished games through the public API (what the statistics pages show): two won
 * Classic draw-1 games (the rules package's winnable deal and line) and one resigned, played with the
 * player's token, so they belong to the player.
 */
import { resolveOptions } from '@klondike/rules';
import { winnableDeal, winningLine } from '@klondike/rules/testing';

/** A seeded player. */
export interface SeededPlayer {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  /** Game ids, oldest first, with how each ended. */
  readonly games: readonly { id: string; status: 'won' | 'resigned' }[];
}

async function call<T>(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Creates `name` and plays won, won, resigned (classic-draw1) as that player on the server at `base`. */
export async function seedPlayer(base: string, name: string): Promise<SeededPlayer> {
  const p = await call<{ id: string; token: string }>(base, 'POST', '/api/players', null, { name });
  const games: { id: string; status: 'won' | 'resigned' }[] = [];
  const line = winningLine(resolveOptions('classic-draw1'));
  for (let i = 0; i < 2; i++) {
    const g = await call<{ id: string }>(base, 'POST', '/api/games', p.token, {
      preset: 'classic-draw1',
      deal: winnableDeal(1),
    });
    let version = 0;
    for (const move of line)
      version = (
        await call<{ version: number }>(base, 'POST', `/api/games/${g.id}/moves`, p.token, { move, version })
      ).version;
    games.push({ id: g.id, status: 'won' });
  }
  const lost = await call<{ id: string }>(base, 'POST', '/api/games', p.token, {
    preset: 'classic-draw1',
    dealNumber: 7,
  });
  await call(base, 'POST', `/api/games/${lost.id}/resign`, p.token, {});
  games.push({ id: lost.id, status: 'resigned' });
  return { id: p.id, name, token: p.token, games };
}
