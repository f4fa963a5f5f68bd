/**
 * The peer benchmark's workloads: each is one SchedulingInput that both Tenon and Karpenter's scheduler solve, plus the
 * preference policy to solve it under.
 */
import type { PreferencePolicy, SchedulingInput } from '../../src/scheduling/index.js';
import { costWorkloads } from '../scheduling/cost-workloads.js';
import {
  benchmarkNodePool,
  fakeInstanceTypes,
  makeDiversePods,
  makePreferencePods,
} from '../scheduling/karpenter-workload.js';

/** One workload at one size. */
export interface PeerWorkload {
  /** The name printed in the table and the JSON lines. */
  name: string;
  pods: number;
  preferencePolicy: PreferencePolicy;
  build: (seed: number) => SchedulingInput;
}

/** Karpenter's benchmark sizes the issue asks for. */
export const defaultDiverseSizes = [1000, 5000, 20000];
/** `BenchmarkRespectPreferences` / `BenchmarkIgnorePreferences` use 4,000 pods. */
export const preferencePods = 4000;

// The cost suite's workloads that the Go side models: existing nodes would need Karpenter's cluster state.
const costNames = costWorkloads.filter((w) => w.name !== 'existing-nodes').map((w) => w.name);

/** Every workload family, by the name `--workloads` selects it with. */
export const workloadFamilies = ['diverse', 'preferences', 'cost'] as const;

/** The workloads to run: the diverse mix at `sizes`, the preference pods under both policies, the cost workloads. */
export function peerWorkloads(opts: { sizes: number[]; families: readonly string[] }): PeerWorkload[] {
  const out: PeerWorkload[] = [];
  const fake = (pods: SchedulingInput['pods']): SchedulingInput => ({
    pods,
    nodePools: [benchmarkNodePool()],
    instanceTypes: fakeInstanceTypes(400),
  });
  if (opts.families.includes('diverse')) {
    for (const n of opts.sizes)
      out.push({
        name: 'karpenter-diverse',
        pods: n,
        preferencePolicy: 'Respect',
        build: (seed) => fake(makeDiversePods(n, { seed })),
      });
  }
  if (opts.families.includes('preferences')) {
    for (const policy of ['Respect', 'Ignore'] as const) {
      out.push({
        name: `preferences-${policy.toLowerCase()}`,
        pods: preferencePods,
        preferencePolicy: policy,
        build: (seed) => fake(makePreferencePods(preferencePods, { seed })),
      });
    }
  }
  if (opts.families.includes('cost')) {
    for (const name of costNames) {
      const w = costWorkloads.find((x) => x.name === name);
      if (w)
        out.push({
          name: `cost-${name}`,
          pods: w.pods,
          preferencePolicy: 'Respect',
          build: (seed) => w.build(w.pods, seed),
        });
    }
  }
  return out;
}
