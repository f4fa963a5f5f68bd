/**
 * The fault suite: random workloads under random faults (API errors 409/429/500/503/timeouts on any or some
 * verbs and resources, dropped watches, EC2 throttling, insufficient capacity on some or all offerings,
 * instances lost, kubelets stopped, controllers restarted with empty caches or killed as SIGKILL at a call of a
 * launch, registration, drain or deletion, clock jumps, drift, short expireAfter), with the invariants
 * of invariants.ts. Seeded and replayable: a failure prints the command that replays it. CI runs a fixed seed
 * (`npm run test:faults`); `npm run soak` runs many cases (TENON_FAULT_RUNS) with a fresh seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faultCaseArb, runFaultCase } from './fault-world.js';

const runs = Number(process.env.TENON_FAULT_RUNS ?? 3);
const seed = process.env.TENON_FAULT_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.TENON_FAULT_SEED);
const path = process.env.TENON_FAULT_PATH;

describe('fault suite', () => {
  it(
    `converges with every invariant held over ${runs} random fault cases (seed ${seed})`,
    async () => {
      const result = await fc.check(
        fc.asyncProperty(faultCaseArb, async (c) => {
          const { violations } = await runFaultCase(c);
          if (violations.length > 0)
            throw new Error(violations.map((v) => `minute ${v.atMinute.toFixed(1)}: ${v.what}`).join('\n'));
        }),
        { seed, numRuns: runs, endOnFailure: true, ...(path ? { path } : {}) },
      );
      if (result.failed) {
        const replay = `TENON_FAULT_SEED=${result.seed} TENON_FAULT_PATH=${result.counterexamplePath ?? ''} TENON_FAULT_RUNS=1 npm run soak`;
        throw new Error(
          `fault case failed: ${JSON.stringify(result.counterexample)}\n${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\nreplay: ${replay}`,
        );
      }
      expect(result.numRuns).toBe(runs);
    },
    60 * 60_000,
  );
});
