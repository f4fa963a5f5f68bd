/**
 * The playground's heap settings. Between full collections V8 lets the old generation grow to up to four times what
 * survived the last one; in the playground almost all of that growth is garbage (each write's request, response
 * and watch copies), so RSS ran at two to three times the live heap. Growing by 20% keeps RSS near live memory for
 * about a tenth more CPU (docs/adr/0015-scale-run-finishes.md).
 *
 * V8's memory-saving mode (`--optimize-for-size`, set at run time) lowered the peak RSS by 14% at 20,000 pods for
 * about 15% more wall time (docs/adr/0017-the-peak-is-in-the-collector.md). Compacting on every full collection
 * was tried and dropped: it keeps fewer half-empty pages between collections, but each collection first copies
 * every survivor to new pages, so RSS at its peak, inside the collection, was about 1.4 times what it was in
 * between.
 */
import v8 from 'node:v8';

/** The old generation's growth over what survived the last full collection, in percent. */
export const playgroundHeapGrowingPercent = 20;

/**
 * The young generation does not grow past its first size. Each scavenge copies what survives, and in the
 * playground most of it survives (stored objects, informer copies): a young generation grown to 16 MB semi-spaces
 * held up to 48 MB more at the peak. `--max-semi-space-size` must be given on the command line; the growth factor
 * can be set at run time, and 1 keeps the young generation at its first size.
 */
export const playgroundSemiSpaceGrowthFactor = 1;

/** Sets the process's heap for a playground (the CLI's play, serve and scenario commands and the benchmark). */
export function useLeanHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${playgroundHeapGrowingPercent}`);
  v8.setFlagsFromString('--optimize-for-size');
  v8.setFlagsFromString(`--semi-space-growth-factor=${playgroundSemiSpaceGrowthFactor}`);
}
