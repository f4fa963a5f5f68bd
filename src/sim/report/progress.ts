/** The one-line live progress of a run, redrawn in place on a terminal. */
import type { Sample } from './run-report.js';

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** `[sim 02:15] step 3/7 wait | pods 12 pending, 88 running | nodes 9 ready, 2 starting | 11 NodeClaims | $1.2345/h`. */
export function progressLine(p: { sample: Sample; step: number; steps: number; text: string }): string {
  const s = p.sample;
  return `[sim ${clock(s.t)}] step ${p.step}/${p.steps} ${p.text.padEnd(7)} | pods ${s.podsPending} pending, ${s.podsRunning} running | nodes ${s.nodesReady} ready, ${s.nodesNotReady} starting | ${s.nodeClaims} NodeClaims | $${s.costPerHour.toFixed(4)}/h`;
}
