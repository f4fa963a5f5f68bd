import { loadHighs } from './bench/scheduling/highs.js';
import { lowerBound } from './src/scheduling/lower-bound/index.js';
import { solve } from './src/scheduling/index.js';
import { fakeInstanceTypes, benchmarkNodePool, makeDiversePods } from './bench/scheduling/karpenter-workload.js';
const solveLp = await loadHighs();
for (const n of [100, 500]) {
  const input = { pods: makeDiversePods(n, { seed: 42 }), nodePools: [benchmarkNodePool()], instanceTypes: fakeInstanceTypes(400) };
  const t0 = performance.now();
  const lb = lowerBound(input, { solveLp });
  const t1 = performance.now();
  const r = solve(input); const f = solve({ ...input, strategy: 'karpenter-ffd' });
  console.log(n, (t1 - t0).toFixed(0), 'ms', lb, 'cost', r.cost, 'ffd', f.cost);
}
