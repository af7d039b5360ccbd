/**
 * The allocation bitmap of a range (kube's allocator.AllocationBitmap): bit i set means item i
 * is taken. Pure functions over a byte array, so a snapshot read from storage can be checked and
 * changed inside one optimistic update.
 */
export class AllocationBitmap {
  private constructor(
    /** Items in the range. */
    readonly max: number,
    private readonly bytes: Uint8Array,
  ) {}

  static empty(max: number): AllocationBitmap {
    return new AllocationBitmap(max, new Uint8Array(Math.ceil(max / 8)));
  }

  /** Restores a snapshot (base64); bits beyond max are ignored, a short snapshot is padded. */
  static fromSnapshot(max: number, data: string): AllocationBitmap {
    const bytes = new Uint8Array(Math.ceil(max / 8));
    bytes.set(Buffer.from(data, 'base64').subarray(0, bytes.length));
    return new AllocationBitmap(max, bytes);
  }

  snapshot(): string {
    return Buffer.from(this.bytes).toString('base64');
  }

  has(i: number): boolean {
    return i >= 0 && i < this.max && ((this.bytes[i >> 3] as number) & (1 << (i & 7))) !== 0;
  }

  set(i: number): void {
    this.bytes[i >> 3] = (this.bytes[i >> 3] as number) | (1 << (i & 7));
  }

  clear(i: number): void {
    this.bytes[i >> 3] = (this.bytes[i >> 3] as number) & ~(1 << (i & 7));
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.max; i++) if (this.has(i)) n++;
    return n;
  }

  /**
   * A free item, or undefined when the range is full (kube's randomScanStrategyWithOffset): a
   * random start in [offset, max) scanned upwards with wrap-around inside that band, then the
   * band below offset, so dynamic allocations avoid the low band users pick static IPs from.
   */
  findFree(offset: number, random: (below: number) => number): number | undefined {
    const bands: Array<[number, number]> =
      offset > 0 && offset < this.max
        ? [
            [offset, this.max],
            [0, offset],
          ]
        : [[0, this.max]];
    for (const [lo, hi] of bands) {
      const size = hi - lo;
      if (size <= 0) continue;
      const start = random(size);
      for (let k = 0; k < size; k++) {
        const i = lo + ((start + k) % size);
        if (!this.has(i)) return i;
      }
    }
    return undefined;
  }
}
