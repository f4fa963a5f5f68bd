/**
 * The playground's heap settings. Between full collections V8 lets the old generation grow to up to four times what
 * survived the last one; in the playground almost all of that growth is garbage (each write's request, response
 * and watch copies), so RSS ran at two to three times the live heap. Growing by 20% keeps RSS near live memory for
 * about a tenth more CPU (docs/adr/0015-scale-run-finishes.md). Compacting on every full collection moves the
 * survivors out of half-empty pages: without it the old generation's pages held about 1.4 times its live bytes
 * (docs/adr/0016-what-a-pod-costs.md).
 */
import v8 from 'node:v8';

/** The old generation's growth over what survived the last full collection, in percent. */
export const playgroundHeapGrowingPercent = 20;

/** Sets the process's heap growth and compaction for a playground (the CLI's play, serve and scenario commands and the benchmark). */
export function useLeanHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${playgroundHeapGrowingPercent}`);
  v8.setFlagsFromString('--compact-on-every-full-gc');
}
