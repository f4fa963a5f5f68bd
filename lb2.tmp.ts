import { loadHighs } from './bench/scheduling/highs.js';
import { lowerBound } from './src/scheduling/lower-bound/index.js';
import { fakeInstanceTypes, benchmarkNodePool, makeDiversePods } from './bench/scheduling/karpenter-workload.js';
const inner = await loadHighs();
let calls = 0, ms = 0;
const solveLp = (lp: string) => { calls++; const t = performance.now(); const r = inner(lp); ms += performance.now() - t; if (calls % 50 === 0) console.log('calls', calls, ms.toFixed(0), lp.length); return r; };
const input = { pods: makeDiversePods(10, { seed: 42 }), nodePools: [benchmarkNodePool()], instanceTypes: fakeInstanceTypes(400) };
const t0 = performance.now();
console.log(lowerBound(input, { solveLp, maxIterations: 60 }), performance.now() - t0, calls, ms);
