/**
 * Planned NodeClaims ordered by the cpu still free on the type each is meant to fill (its target, else its
 * cheapest option). Tenon's best fit looks at the bins with just enough free cpu first and stops early, instead
 * of scoring every bin for every pod, which kept large batches (thousands of bins) quadratic.
 */
import type { NewBin } from './new-bin.js';

function freeCpu(bin: NewBin): number {
  const c = bin.current();
  return c ? (c.allocatable['cpu'] ?? 0) - (bin.requests['cpu'] ?? 0) : Number.NEGATIVE_INFINITY;
}

/** Bins sorted ascending by free cpu. */
export class FreeCpuIndex {
  private readonly bins: NewBin[] = [];
  private readonly keys: number[] = [];

  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? 0) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds a new bin. */
  add(bin: NewBin): void {
    const key = freeCpu(bin);
    const i = this.lowerBound(key);
    this.bins.splice(i, 0, bin);
    this.keys.splice(i, 0, key);
  }

  /** Re-files a bin after a pod was added to it. */
  update(bin: NewBin): void {
    const i = this.bins.indexOf(bin);
    if (i >= 0) {
      this.bins.splice(i, 1);
      this.keys.splice(i, 1);
    }
    this.add(bin);
  }

  /** Bins with at least `cpu` free, tightest first. */
  *atLeast(cpu: number): Generator<NewBin> {
    for (let i = this.lowerBound(cpu); i < this.bins.length; i++) yield this.bins[i] as NewBin;
  }

  /** Bins from the most free cpu down. */
  *roomiestFirst(): Generator<NewBin> {
    for (let i = this.bins.length - 1; i >= 0; i--) yield this.bins[i] as NewBin;
  }
}
