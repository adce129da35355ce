// The slots of a fixed cache of numbered blocks (file pages, matrix rows) with CLOCK eviction (second chance): a hit
// is two typed-array reads and a write, no Map bookkeeping (the analyser looks a row up for every lattice node).
export class SlotCache {
  /** block → slot + 1 (0: not cached) */
  private readonly slotOf: Int32Array;
  /** slot → block (-1: free) */
  private readonly blockOf: Int32Array;
  private readonly used: Uint8Array;
  private hand = 0;
  private filled = 0;

  constructor(blocks: number, readonly slots: number) {
    this.slotOf = new Int32Array(blocks);
    this.blockOf = new Int32Array(slots).fill(-1);
    this.used = new Uint8Array(slots);
  }

  /** the slot holding block, or -1 */
  find(block: number): number {
    const s = this.slotOf[block]! - 1;
    if (s >= 0) this.used[s] = 1;
    return s;
  }

  /** a slot for block (the caller fills it): a free one, else the first not used since the hand last passed */
  claim(block: number): number {
    let s: number;
    if (this.filled < this.slots) s = this.filled++;
    else {
      while (this.used[this.hand]) { this.used[this.hand] = 0; this.hand = (this.hand + 1) % this.slots; }
      s = this.hand;
      this.hand = (this.hand + 1) % this.slots;
      this.slotOf[this.blockOf[s]!] = 0;
    }
    this.blockOf[s] = block;
    this.slotOf[block] = s + 1;
    this.used[s] = 1;
    return s;
  }
}
