/**
 * The playground's heap settings (docs/adr/0012-playground-memory-budget.md; measurements in docs/perf). Between full
 * collections V8 lets the old generation grow to several times what survived the last one; in the playground almost
 * all of that growth is garbage (each write's request, response and watch copies), so RSS ran far above the live
 * heap. A small, bounded growth keeps RSS near live memory for some more CPU. V8's memory-saving mode trades wall
 * time for a lower peak. Compacting on every full collection was tried and dropped: each collection first copies
 * every survivor to new pages, so RSS inside the collection, where the peak is, rose.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The old generation's growth over what survived the last full collection, in percent (at most). */
export const playgroundHeapGrowingPercent = 20;

/**
 * The garbage a large heap may gather between full collections, in bytes. A percentage of a large playground's live
 * heap is RSS holding nothing; full collections are a small share of the run's time next to scavenges, so collecting
 * more often costs little.
 */
export const playgroundHeapHeadroomBytes = 40 * 2 ** 20;

/** Growth never drops below this, in percent: a heap of gigabytes still needs room to allocate between collections. */
const minGrowingPercent = 5;

/** The growth in percent for a heap with `liveBytes` surviving a full collection: 20%, or less where that exceeds the headroom. */
export function growingPercentFor(liveBytes: number): number {
  const percent = Math.floor((playgroundHeapHeadroomBytes / Math.max(1, liveBytes)) * 100);
  return Math.max(minGrowingPercent, Math.min(playgroundHeapGrowingPercent, percent));
}

/**
 * The young generation does not grow past its first size. Each scavenge copies what survives, and in the
 * playground most of it survives (stored objects, informer copies), so a grown young generation only raises the
 * peak. `--max-semi-space-size` must be given on the command line; the growth factor
 * can be set at run time, and 1 keeps the young generation at its first size.
 */
export const playgroundSemiSpaceGrowthFactor = 1;

/** Sets the process's heap for a playground (the CLI's play, serve and scenario commands and the benchmark). */
export function useLeanHeap(): void {
  let percent = playgroundHeapGrowingPercent;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  v8.setFlagsFromString('--optimize-for-size');
  v8.setFlagsFromString(`--semi-space-growth-factor=${playgroundSemiSpaceGrowthFactor}`);
  if (leanHeapObserver) return;
  // V8 reads the flag when it sets the next limit, after each full collection: right after one, the heap in use is
  // about what survived it.
  leanHeapObserver = new PerformanceObserver((list) => {
    if (!list.getEntries().some(isFullCollection)) return;
    const next = growingPercentFor(process.memoryUsage().heapUsed);
    if (next === percent) return;
    percent = next;
    v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  });
  leanHeapObserver.observe({ entryTypes: ['gc'] });
}

let leanHeapObserver: PerformanceObserver | undefined;

function isFullCollection(e: PerformanceEntry): boolean {
  const detail: unknown = 'detail' in e ? e.detail : undefined;
  return (
    typeof detail === 'object' &&
    detail !== null &&
    'kind' in detail &&
    detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR
  );
}
