/**
 * The table `solve` used before the packed `KeyTable`: kept only so the benchmark can report states held
 * per MB before and after. A separate `Uint32Array` of hashes plus the keys, power-of-two capacity, load
 * ≤ 0.75.
 */
export class LegacyKeySet {
  readonly width: number;
  private capacity = 1024;
  private hashes = new Uint32Array(1024);
  private keys: Uint32Array;
  size = 0;
  peakBytes = 0;
  constructor(width: number) {
    this.width = width;
    this.keys = new Uint32Array(1024 * width);
  }
  /** Bytes held by the arrays now. */
  get bytes(): number {
    return this.hashes.byteLength + this.keys.byteLength;
  }
  /** Adds a key; true when it was new. */
  add(key: Uint32Array): boolean {
    const w = this.width;
    let h = 0x811c9dc5;
    for (let i = 0; i < w; i++) h = Math.imul(h ^ (key[i] as number), 0x01000193);
    h = ((h ^ (h >>> 16)) | 1) >>> 0;
    const mask = this.capacity - 1;
    let slot = h & mask;
    for (;;) {
      const s = this.hashes[slot] as number;
      if (s === 0) break;
      if (s === h) {
        let same = true;
        for (let i = 0; i < w; i++) if (this.keys[slot * w + i] !== key[i]) same = false;
        if (same) return false;
      }
      slot = (slot + 1) & mask;
    }
    this.hashes[slot] = h;
    for (let i = 0; i < w; i++) this.keys[slot * w + i] = key[i] as number;
    this.size++;
    if (this.size * 4 > this.capacity * 3) {
      const old = { h: this.hashes, k: this.keys, cap: this.capacity };
      this.capacity *= 2;
      this.hashes = new Uint32Array(this.capacity);
      this.keys = new Uint32Array(this.capacity * w);
      this.peakBytes = Math.max(this.peakBytes, this.bytes + old.h.byteLength + old.k.byteLength);
      this.size = 0;
      for (let s = 0; s < old.cap; s++) if (old.h[s] !== 0) this.add(old.k.subarray(s * w, s * w + w));
    }
    this.peakBytes = Math.max(this.peakBytes, this.bytes);
    return true;
  }
}
