/**
 * The compact form of a finished game's move log ("Game"."moveLog"), documented in docs/move-log.md: a
 * format byte, then for each entry in order (seq 1, 2, …) the ms since the previous entry as a zigzag varint
 * (the first entry: since the game's creation), and the action in one or two bytes. A move costs about four
 * bytes, against a "Move" row of some hundred.
 */
import { PILE_IDS } from '@klondike/rules';
import type { StoredEntry } from './game-rows.js';

/** The format byte of the only format so far. */
export const LOG_FORMAT = 1;

/** Action bytes of the entries without piles (a move is 0x10 | from, then to << 4 | count − 1). */
const OP = { undo: 0x00, resign: 0x01, draw: 0x02, recycle: 0x03, 'last-pass': 0x04 } as const;
const MOVE_OP = 0x10;

const pileIndex = new Map<string, number>(PILE_IDS.map((p, i) => [p, i]));

/** A log entry this format cannot hold (a move of an unknown shape): the game keeps its rows. */
export class UnencodableEntry extends Error {
  override readonly name = 'UnencodableEntry';
}

/** The log's bytes has a format or a structure this reader does not know. */
export class CorruptLog extends Error {
  override readonly name = 'CorruptLog';
}

function pushVarint(out: number[], n: number): void {
  // Zigzag: small negative offsets (a node's clock a little behind) stay small.
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  while (z >= 0x80) {
    out.push((z % 0x80) | 0x80);
    z = Math.floor(z / 0x80);
  }
  out.push(z);
}

function actionBytes(e: StoredEntry): number[] {
  if (e.kind === 'undo') return [OP.undo];
  if (e.kind === 'resign') return [OP.resign];
  const m = e.move as { type?: unknown; from?: unknown; to?: unknown; count?: unknown } | null;
  if (m !== null && typeof m === 'object') {
    if (m.type === 'draw' || m.type === 'recycle' || m.type === 'last-pass') {
      if (Object.keys(m).length === 1) return [OP[m.type]];
    } else if (m.type === 'move' && Object.keys(m).length === 4) {
      const from = pileIndex.get(String(m.from));
      const to = pileIndex.get(String(m.to));
      const count = m.count;
      if (
        from !== undefined &&
        to !== undefined &&
        typeof count === 'number' &&
        Number.isInteger(count) &&
        count >= 1 &&
        count <= 16
      )
        return [MOVE_OP | from, (to << 4) | (count - 1)];
    }
  }
  throw new UnencodableEntry(`entry ${e.seq}: cannot encode ${JSON.stringify(e.move)}`);
}

/**
 * Encodes a whole log (entries seq 1 … n in order; times in ms since the epoch) of a game created at
 * `createdAt` (ms). Errors: `UnencodableEntry` for a move of an unknown shape, RangeError when the entries
 * are not seq 1 … n.
 */
export function encodeLog(createdAt: number, log: readonly StoredEntry[]): Uint8Array<ArrayBuffer> {
  const out: number[] = [LOG_FORMAT];
  let last = createdAt;
  log.forEach((e, i) => {
    if (e.seq !== i + 1) throw new RangeError(`entry ${i + 1} has seq ${e.seq}`);
    pushVarint(out, e.at - last);
    last = e.at;
    out.push(...actionBytes(e));
  });
  return Uint8Array.from(out);
}

/**
 * Decodes `encodeLog`'s bytes back into the entries (seq 1 … n, moves in the public notation, times in ms
 * since the epoch). Errors: `CorruptLog`.
 */
export function decodeLog(createdAt: number, bytes: Uint8Array): StoredEntry[] {
  if (bytes[0] !== LOG_FORMAT) throw new CorruptLog(`unknown move log format ${bytes[0]}`);
  const out: StoredEntry[] = [];
  let i = 1;
  let at = createdAt;
  const byte = (): number => {
    const b = bytes[i++];
    if (b === undefined) throw new CorruptLog('the move log ends in the middle of an entry');
    return b;
  };
  while (i < bytes.length) {
    let z = 0;
    let scale = 1;
    for (;;) {
      const b = byte();
      z += (b & 0x7f) * scale;
      if (b < 0x80) break;
      scale *= 0x80;
    }
    at += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    const op = byte();
    const seq = out.length + 1;
    if (op === OP.undo) out.push({ seq, kind: 'undo', move: null, at });
    else if (op === OP.resign) out.push({ seq, kind: 'resign', move: null, at });
    else if (op === OP.draw) out.push({ seq, kind: 'move', move: { type: 'draw' }, at });
    else if (op === OP.recycle) out.push({ seq, kind: 'move', move: { type: 'recycle' }, at });
    else if (op === OP['last-pass']) out.push({ seq, kind: 'move', move: { type: 'last-pass' }, at });
    else if ((op & 0xf0) === MOVE_OP) {
      const b = byte();
      const from = PILE_IDS[op & 0x0f];
      const to = PILE_IDS[b >> 4];
      if (from === undefined || to === undefined) throw new CorruptLog(`entry ${seq}: unknown pile`);
      out.push({ seq, kind: 'move', move: { type: 'move', from, to, count: (b & 0x0f) + 1 }, at });
    } else throw new CorruptLog(`entry ${seq}: unknown action byte ${op}`);
  }
  return out;
}
