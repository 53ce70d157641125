/** Bit that `KeyTable` sets in the last word of every stored key: a slot whose last word is 0 is empty. */
const STORED = 0x80000000;
/** Load factor at which the table grows while it may still grow. */
const GROW_LOAD = 0.75;
/** Highest load factor: the last allocation is sized so that `maxEntries` fit at this load. */
const MAX_LOAD = 0.85;

/**
 * The solver's transposition table (P1 in README.md): an exact hash table of fixed-width keys (`width`
 * unsigned 32-bit words each), packed into one flat `Uint32Array` — no per-entry objects, no stored hash,
 * no pointers — with an optional 32-bit value stored right after each key in the same row (one probe reads both). Open addressing with linear probing; the
 * slot index is `hash * capacity / 2^32`, so the capacity need not be a power of two and the last growth
 * step is sized to `maxEntries` exactly. An entry costs `4 * width` bytes (plus 4 with values) divided by
 * the load factor (≤ 0.75 while growing, ≤ 0.85 at the end).
 *
 * Keys are compared word by word, never by hash alone, so a hash collision can never make the search skip
 * a position it has not seen (no false "impossible"). The caller must leave bit 31 of the last key word
 * free: the table sets it in every stored key to tell full slots from empty ones.
 */
export class KeyTable {
  /** Words per key. */
  readonly width: number;
  /** Entries the caller means to store (its memory bound); the last growth step is sized for them. */
  readonly maxEntries: number;
  private capacity: number;
  /** Words per slot: the key, then (with values) the value in the same row, so one probe reads both. */
  private readonly stride: number;
  private readonly withValues: boolean;
  private readonly growFactor: number;
  private keys: Uint32Array;
  /** Entries stored. */
  size = 0;
  /** Highest number of bytes the arrays held at once (growth keeps the old and new arrays briefly). */
  peakBytes = 0;
  /**
   * Times the table has grown. Entries only move when it grows (open addressing without deletion), so a
   * slot returned by `insert` stays the slot of its key while `growths` is unchanged.
   */
  growths = 0;

  /**
   * @param width words per key (≥ 1); bit 31 of the last word must be 0 in every key
   * @param maxEntries most entries (the memory bound); the table grows up to `maxEntries / 0.85` slots
   * @param withValues keep one 32-bit value per entry (`value` / `setValue`)
   * @param growFactor how many times larger each growth step makes the table (2 or more; default 2): a
   *   larger factor re-inserts fewer entries overall (each growth re-inserts every entry) for more memory
   *   while the table is not yet at its last size
   */
  constructor(width: number, maxEntries = 4_000_000, withValues = false, growFactor = 2) {
    this.width = width;
    this.growFactor = Math.max(2, Math.floor(growFactor));
    this.maxEntries = Math.max(1, Math.floor(maxEntries));
    this.capacity = Math.max(16, Math.min(1 << 16, Math.ceil(this.maxEntries / MAX_LOAD)));
    this.withValues = withValues;
    this.stride = width + (withValues ? 1 : 0);
    this.keys = new Uint32Array(this.capacity * this.stride);
    this.peakBytes = this.bytes;
  }

  /** Whether the table keeps one 32-bit value per entry. */
  get hasValues(): boolean {
    return this.withValues;
  }

  /** Bytes held by the table's arrays now. */
  get bytes(): number {
    return this.keys.byteLength;
  }

  /** True when no further entry can be added. */
  get full(): boolean {
    return this.size >= this.maxEntries;
  }

  private hash(key: Uint32Array, at = 0): number {
    const w = this.width;
    let h = 0x811c9dc5;
    for (let i = 0; i < w; i++) {
      let x = key[at + i] as number;
      if (i === w - 1) x = (x | STORED) >>> 0;
      h = Math.imul(h ^ x, 0x01000193);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  /**
   * The slot of `key[0 .. width-1]`, inserting it when absent (then `inserted` is true). Never refuses a key
   * (the caller stops its search once `full`). A slot number stays valid only until the next insertion.
   */
  insert(key: Uint32Array): number {
    const w = this.width;
    const st = this.stride;
    const last = ((key[w - 1] as number) | STORED) >>> 0;
    const keys = this.keys;
    const cap = this.capacity;
    let slot = Math.floor((this.hash(key) / 4294967296) * cap);
    for (;;) {
      const base = slot * st;
      const s = keys[base + w - 1] as number;
      if (s === 0) break;
      if (s === last) {
        let same = true;
        for (let i = 0; i < w - 1; i++) {
          if (keys[base + i] !== key[i]) {
            same = false;
            break;
          }
        }
        if (same) {
          this.inserted = false;
          return slot;
        }
      }
      slot = slot + 1 === cap ? 0 : slot + 1;
    }
    const base = slot * st;
    for (let i = 0; i < w - 1; i++) keys[base + i] = key[i] as number;
    keys[base + w - 1] = last;
    this.size++;
    this.inserted = true;
    // Past `maxEntries` (the caller polls `full` and stops) the table still grows rather than refuse a key:
    // a refused key would look "seen" and could hide a win.
    if (this.size > this.capacity * (this.canGrow() ? GROW_LOAD : 0.95)) return this.grow(slot);
    return slot;
  }

  /** The slot of `key[0 .. width-1]`, or −1 when it is not stored (never inserts). */
  find(key: Uint32Array): number {
    const w = this.width;
    const st = this.stride;
    const last = ((key[w - 1] as number) | STORED) >>> 0;
    const keys = this.keys;
    const cap = this.capacity;
    let slot = Math.floor((this.hash(key) / 4294967296) * cap);
    for (;;) {
      const base = slot * st;
      const s = keys[base + w - 1] as number;
      if (s === 0) return -1;
      if (s === last) {
        let same = true;
        for (let i = 0; i < w - 1; i++) {
          if (keys[base + i] !== key[i]) {
            same = false;
            break;
          }
        }
        if (same) return slot;
      }
      slot = slot + 1 === cap ? 0 : slot + 1;
    }
  }

  /** Whether `key[0 .. width-1]` is stored (never inserts). */
  has(key: Uint32Array): boolean {
    return this.find(key) >= 0;
  }

  /** Whether the last `insert` added the key. */
  inserted = false;

  /**
   * Adds the key held in `key[0 .. width-1]`. Returns true when it was new, false when it was already there.
   */
  add(key: Uint32Array): boolean {
    this.insert(key);
    return this.inserted;
  }

  /** The value of a slot returned by `insert` (0 for a new entry). Needs `withValues`. */
  value(slot: number): number {
    return this.keys[slot * this.stride + this.width] as number;
  }

  /** Sets the value of a slot returned by `insert`. Needs `withValues`. */
  setValue(slot: number, v: number): void {
    this.keys[slot * this.stride + this.width] = v;
  }

  private canGrow(): boolean {
    return this.capacity < Math.ceil(this.maxEntries / MAX_LOAD);
  }

  /** Re-inserts every entry into a larger array; returns the new slot of the entry that was at `follow`. */
  private grow(follow: number): number {
    const w = this.width;
    const st = this.stride;
    const oldKeys = this.keys;
    const oldCap = this.capacity;
    // Straight to the last size when one more step would leave less than doubling to it: a last step of a
    // few percent would re-insert every entry and hold both arrays for almost nothing.
    const last = Math.ceil(this.maxEntries / MAX_LOAD);
    const step = oldCap * this.growFactor;
    const cap = this.canGrow() ? (step * 2 > last ? last : step) : oldCap * 2;
    const keys = new Uint32Array(cap * st);
    this.peakBytes = Math.max(this.peakBytes, this.bytes + keys.byteLength);
    this.capacity = cap;
    let moved = -1;
    for (let slot = 0; slot < oldCap; slot++) {
      const a = slot * st;
      if (oldKeys[a + w - 1] === 0) continue;
      let to = Math.floor((this.hash(oldKeys, a) / 4294967296) * cap);
      while (keys[to * st + w - 1] !== 0) to = to + 1 === cap ? 0 : to + 1;
      const b = to * st;
      for (let i = 0; i < st; i++) keys[b + i] = oldKeys[a + i] as number;
      if (slot === follow) moved = to;
    }
    this.keys = keys;
    this.growths++;
    return moved;
  }
}
