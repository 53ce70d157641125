/**
 * An exact hash set of fixed-width keys (`width` unsigned 32-bit words each): the solver's transposition
 * table. Open addressing with linear probing over flat typed arrays, so an entry costs `4 * (width + 1)`
 * bytes divided by the load factor (at most 0.75). Keys are compared word by word, never by hash alone, so a
 * hash collision can never make the search skip a position it has not seen (no false "impossible").
 */
export class KeySet {
  /** Words per key. */
  readonly width: number;
  private capacity: number;
  private mask: number;
  /** Stored hash of each slot, with bit 0 forced to 1; 0 marks an empty slot. */
  private hashes: Uint32Array;
  private keys: Uint32Array;
  /** Entries stored. */
  size = 0;

  /**
   * @param width words per key (≥ 1)
   * @param initialCapacity slots to start with (rounded up to a power of two, at least 1024)
   */
  constructor(width: number, initialCapacity = 1 << 16) {
    this.width = width;
    let cap = 1024;
    while (cap < initialCapacity) cap *= 2;
    this.capacity = cap;
    this.mask = cap - 1;
    this.hashes = new Uint32Array(cap);
    this.keys = new Uint32Array(cap * width);
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.hashes.byteLength + this.keys.byteLength;
  }

  /**
   * Adds the key held in `key[0 .. width-1]`. Returns true when it was new, false when it was already there.
   */
  add(key: Uint32Array): boolean {
    const w = this.width;
    let h = 0x811c9dc5;
    for (let i = 0; i < w; i++) {
      h = Math.imul(h ^ (key[i] as number), 0x01000193);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h = ((h ^ (h >>> 16)) | 1) >>> 0;
    const hashes = this.hashes;
    const keys = this.keys;
    let slot = h & this.mask;
    for (;;) {
      const s = hashes[slot] as number;
      if (s === 0) break;
      if (s === h) {
        const base = slot * w;
        let same = true;
        for (let i = 0; i < w; i++) {
          if (keys[base + i] !== key[i]) {
            same = false;
            break;
          }
        }
        if (same) return false;
      }
      slot = (slot + 1) & this.mask;
    }
    hashes[slot] = h;
    const base = slot * w;
    for (let i = 0; i < w; i++) keys[base + i] = key[i] as number;
    this.size++;
    if (this.size * 4 > this.capacity * 3) this.grow();
    return true;
  }

  private grow(): void {
    const w = this.width;
    const oldHashes = this.hashes;
    const oldKeys = this.keys;
    const cap = this.capacity * 2;
    const mask = cap - 1;
    const hashes = new Uint32Array(cap);
    const keys = new Uint32Array(cap * w);
    for (let slot = 0; slot < oldHashes.length; slot++) {
      const h = oldHashes[slot] as number;
      if (h === 0) continue;
      let to = h & mask;
      while (hashes[to] !== 0) to = (to + 1) & mask;
      hashes[to] = h;
      const a = slot * w;
      const b = to * w;
      for (let i = 0; i < w; i++) keys[b + i] = oldKeys[a + i] as number;
    }
    this.capacity = cap;
    this.mask = mask;
    this.hashes = hashes;
    this.keys = keys;
  }
}
