import { solve } from './src/scheduling/index.js';
import { checkPlacement, summarizeViolations } from './src/scheduling/check/index.js';
import { fakeInstanceTypes, benchmarkNodePool, makeDiversePods } from './bench/scheduling/karpenter-workload.js';
for (const n of [50, 500, 2000]) {
  const input = { pods: makeDiversePods(n, { seed: 42 }), nodePools: [benchmarkNodePool()], instanceTypes: fakeInstanceTypes(400) };
  for (const strategy of ['tenon', 'karpenter-ffd'] as const) {
    const t0 = performance.now();
    const r = solve({ ...input, strategy });
    const t1 = performance.now();
    const v = checkPlacement(input, r);
    const t2 = performance.now();
    console.log(n, strategy, 'solve', (t1 - t0).toFixed(0), 'check', (t2 - t1).toFixed(0), 'claims', r.newNodeClaims.length, 'unplaced', r.unplaced.length, 'cost', r.cost.toFixed(2), summarizeViolations(v));
    for (const x of v.slice(0, 3)) console.log('   ', JSON.stringify(x));
  }
}
