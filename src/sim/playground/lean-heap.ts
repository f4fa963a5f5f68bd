/**
 * The playground's heap settings. Between full collections V8 lets the old generation grow to up to four times what
 * survived the last one; in the playground almost all of that growth is garbage (each write's request, response
 * and watch copies), so RSS ran at two to three times the live heap. Growing by 20% keeps RSS near live memory for
 * about a tenth more CPU (docs/adr/0015-scale-run-finishes.md); past 200 MB live the growth is held to 40 MB
 * (docs/adr/0019-bounded-headroom.md).
 *
 * V8's memory-saving mode (`--optimize-for-size`, set at run time) lowered the peak RSS by 14% at 20,000 pods for
 * about 15% more wall time (docs/adr/0017-the-peak-is-in-the-collector.md). Compacting on every full collection
 * was tried and dropped: it keeps fewer half-empty pages between collections, but each collection first copies
 * every survivor to new pages, so RSS at its peak, inside the collection, was about 1.4 times what it was in
 * between.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The old generation's growth over what survived the last full collection, in percent (at most). */
export const playgroundHeapGrowingPercent = 20;

/**
 * The garbage a large heap may gather between full collections, in bytes. Twenty percent of a 150,000-pod playground
 * (about 700 MB live) is 140 MB of RSS holding nothing. At 80 MB, full collections took 3.4% of the run's wall time
 * (scavenges took 28%), so collecting twice as often again costs little.
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
 * playground most of it survives (stored objects, informer copies): a young generation grown to 16 MB semi-spaces
 * held up to 48 MB more at the peak. `--max-semi-space-size` must be given on the command line; the growth factor
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
