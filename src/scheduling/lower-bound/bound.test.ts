import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadHighs } from '../../../bench/scheduling/highs.js';
import type { InstanceType, Pod } from '../model.js';
import { checkPlacement } from '../check/check.js';
import { solve } from '../solver/solve.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { lowerBound } from './bound.js';

const milli = (q: string): number => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);

/** The cheapest placement by brute force: every partition of the pods into nodes, each the cheapest type that fits. */
function bruteForce(pods: Pod[], types: InstanceType[], anti: boolean): number {
  const cpu = pods.map((p) => milli(p.spec.containers[0]?.resources?.requests?.['cpu'] ?? '0'));
  const memGi = pods.map((p) =>
    Number((p.spec.containers[0]?.resources?.requests?.['memory'] ?? '0Gi').replace('Gi', '')),
  );
  const nodeCost = (members: number[]): number => {
    if (anti && members.length > 1) return Number.POSITIVE_INFINITY;
    const c = members.reduce((s, i) => s + (cpu[i] ?? 0), 0);
    const m = members.reduce((s, i) => s + (memGi[i] ?? 0), 0);
    let best = Number.POSITIVE_INFINITY;
    for (const t of types) {
      const tc = milli(t.capacity['cpu'] ?? '0');
      const tm = Number((t.capacity['memory'] ?? '0Gi').replace('Gi', ''));
      if (c <= tc && m <= tm && members.length + 1 <= Number(t.capacity['pods'] ?? 0))
        best = Math.min(best, ...t.offerings.map((o) => o.price));
    }
    return best;
  };
  let best = Number.POSITIVE_INFINITY;
  const bins: number[][] = [];
  const go = (i: number, cost: number): void => {
    if (cost >= best) return;
    if (i === pods.length) {
      best = Math.min(
        best,
        bins.reduce((s, b) => s + nodeCost(b), 0),
      );
      return;
    }
    for (const b of bins) {
      b.push(i);
      go(i + 1, cost);
      b.pop();
    }
    bins.push([i]);
    go(i + 1, cost);
    bins.pop();
  };
  go(0, 0);
  return best;
}

const typeArb = fc.record({
  cpu: fc.integer({ min: 1, max: 8 }),
  mem: fc.integer({ min: 1, max: 16 }),
  price: fc.integer({ min: 1, max: 100 }),
});
const podArb = fc.record({
  cpu: fc.constantFrom('250m', '500m', '1', '1500m', '2'),
  mem: fc.integer({ min: 1, max: 6 }),
});

describe('lowerBound', () => {
  it('never exceeds the brute-force optimum on tiny instances', async () => {
    const solveLp = await loadHighs();
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 3 }),
        fc.array(podArb, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (ts, ps, anti) => {
          const types = ts.map((t, i) =>
            makeInstanceType({ name: `t${i}`, cpu: t.cpu, memGi: t.mem, price: t.price / 100, zones: ['z1'] }),
          );
          const pods = ps.map((p, i) =>
            makePod({
              name: `p${i}`,
              cpu: p.cpu,
              memory: `${p.mem}Gi`,
              labels: { app: 'a' },
              ...(anti
                ? {
                    affinity: {
                      podAntiAffinity: {
                        requiredDuringSchedulingIgnoredDuringExecution: [
                          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'a' } } },
                        ],
                      },
                    },
                  }
                : {}),
            }),
          );
          const opt = bruteForce(pods, types, anti);
          const lb = lowerBound({ pods, nodePools: [makeNodePool()], instanceTypes: types }, { solveLp });
          if (Number.isFinite(opt)) expect(lb.lowerBound).toBeLessThanOrEqual(opt + 1e-9);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it('never exceeds the cost of a checker-valid placement (spread, anti-affinity, existing nodes, DaemonSets)', async () => {
    const solveLp = await loadHighs();
    const zones = ['z1', 'z2', 'z3'];
    const kindArb = fc.constantFrom('plain', 'anti', 'zone-spread', 'hostname-spread');
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ pod: podArb, kind: kindArb }), { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (ts, ps, existing, daemons) => {
          const types = ts.map((t, i) =>
            makeInstanceType({ name: `t${i}`, cpu: t.cpu + 1, memGi: t.mem + 2, price: t.price / 100, zones }),
          );
          const pods = ps.map(({ pod: p, kind }, i) =>
            makePod({
              name: `p${i}`,
              cpu: p.cpu,
              memory: `${Math.min(p.mem, 2)}Gi`,
              labels: { app: kind },
              ...(kind === 'anti'
                ? {
                    affinity: {
                      podAntiAffinity: {
                        requiredDuringSchedulingIgnoredDuringExecution: [
                          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'anti' } } },
                        ],
                      },
                    },
                  }
                : {}),
              ...(kind.endsWith('spread')
                ? {
                    topologySpreadConstraints: [
                      {
                        maxSkew: 1,
                        topologyKey: kind === 'zone-spread' ? 'topology.kubernetes.io/zone' : 'kubernetes.io/hostname',
                        whenUnsatisfiable: 'DoNotSchedule' as const,
                        labelSelector: { matchLabels: { app: kind } },
                      },
                    ],
                  }
                : {}),
            }),
          );
          const nodes = Array.from({ length: existing }, (_, i) => ({
            name: `n${i}`,
            labels: {
              'kubernetes.io/hostname': `n${i}`,
              'topology.kubernetes.io/zone': zones[i % 3] ?? 'z1',
              'kubernetes.io/arch': 'amd64',
              'kubernetes.io/os': 'linux',
              'karpenter.sh/nodepool': 'default',
            },
            allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
            pods: [makePod({ name: `busy${i}`, cpu: '500m', memory: '1Gi', nodeName: `n${i}` })],
          }));
          const daemonSets = daemons
            ? [
                {
                  name: 'agent',
                  namespace: 'kube-system',
                  template: {
                    spec: { containers: [{ name: 'a', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
                  },
                },
              ]
            : [];
          const input = { pods, nodes, daemonSets, nodePools: [makeNodePool()], instanceTypes: types };
          const lb = lowerBound(input, { solveLp, maxIterations: 10 });
          for (const strategy of ['tenon', 'karpenter-ffd'] as const) {
            const r = solve({ ...input, strategy });
            if (r.unplaced.length > 0 || checkPlacement(input, r).length > 0) continue;
            expect(lb.lowerBound).toBeLessThanOrEqual(r.cost + 1e-9);
          }
        },
      ),
      { numRuns: 80, seed: 13 },
    );
  });

  it('never exceeds the cost of a placement valid with Karpenter topology domains (zone spread split over zones)', async () => {
    const solveLp = await loadHighs();
    const zoneArb = fc.integer({ min: 2, max: 4 });
    // The split applies to one shape of spread pods (a class of its own); arm pods never share their nodes.
    const groupArb = fc.record({
      shape: podArb,
      count: fc.integer({ min: 1, max: 12 }),
      arm: fc.array(podArb, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 3 }),
        zoneArb,
        groupArb,
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        (ts, nz, g, maxSkew, existing) => {
          const zones = ['z1', 'z2', 'z3', 'z4'].slice(0, nz);
          // Prices differ by zone, so the per-zone covers matter.
          const types = ts.flatMap((t, i) => {
            const base = makeInstanceType({
              name: `t${i}`,
              cpu: t.cpu + 1,
              memGi: t.mem + 2,
              price: t.price / 100,
              zones,
            });
            const arm = makeInstanceType({
              name: `a${i}`,
              cpu: t.cpu + 1,
              memGi: t.mem + 2,
              price: t.price / 90,
              zones,
              arch: 'arm64',
            });
            return [base, arm].map((it) => ({
              ...it,
              offerings: it.offerings.map((o, z) => ({ ...o, price: o.price * (1 + 0.3 * z) })),
            }));
          });
          const spread = {
            maxSkew,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule' as const,
            labelSelector: { matchLabels: { app: 'web' } },
          };
          const web = Array.from({ length: g.count }, (_, i) =>
            makePod({
              name: `w${i}`,
              cpu: g.shape.cpu,
              memory: `${Math.min(g.shape.mem, 2)}Gi`,
              labels: { app: 'web' },
              topologySpreadConstraints: [spread],
            }),
          );
          const arm = g.arm.map((p, i) =>
            makePod({
              name: `a${i}`,
              cpu: p.cpu,
              memory: `${Math.min(p.mem, 2)}Gi`,
              nodeSelector: { 'kubernetes.io/arch': 'arm64' },
            }),
          );
          const pods = [...web, ...arm];
          const nodes = Array.from({ length: existing }, (_, i) => ({
            name: `n${i}`,
            labels: {
              'kubernetes.io/hostname': `n${i}`,
              'topology.kubernetes.io/zone': zones[(i * 2) % nz] ?? 'z1',
              'kubernetes.io/arch': 'amd64',
              'kubernetes.io/os': 'linux',
              'karpenter.sh/nodepool': 'default',
            },
            allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
            pods: [
              makePod({
                name: `busy${i}`,
                cpu: '500m',
                memory: '1Gi',
                nodeName: `n${i}`,
                labels: i === 1 ? { app: 'web' } : {},
              }),
            ],
          }));
          const input = { pods, nodes, nodePools: [makeNodePool()], instanceTypes: types };
          const lb = lowerBound(input, { solveLp, maxIterations: 10, domains: 'karpenter' });
          for (const strategy of ['tenon', 'karpenter-ffd'] as const) {
            const r = solve({ ...input, strategy });
            if (r.unplaced.length > 0 || checkPlacement(input, r, { domains: 'karpenter' }).length > 0) continue;
            expect(lb.lowerBound).toBeLessThanOrEqual(r.cost + 1e-9);
          }
        },
      ),
      { numRuns: 80, seed: 21 },
    );
  });

  it('never exceeds any zone split of spread pods the Karpenter-domain checker accepts, skewed ones included', async () => {
    const solveLp = await loadHighs();
    const hostname = 'kubernetes.io/hostname';
    const zoneKey = 'topology.kubernetes.io/zone';
    /** Every way to put n pods into k zones. */
    const compositions = (n: number, k: number): number[][] =>
      k === 1
        ? [[n]]
        : Array.from({ length: n + 1 }, (_, first) =>
            compositions(n - first, k - 1).map((rest) => [first, ...rest]),
          ).flat();
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 2, max: 3 }),
        podArb,
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 2 }),
        (ts, nz, shape, n, maxSkew) => {
          const zones = ['z1', 'z2', 'z3'].slice(0, nz);
          const types = ts.map((t, i) => {
            const it = makeInstanceType({
              name: `t${i}`,
              cpu: t.cpu + 1,
              memGi: t.mem + 2,
              price: t.price / 100,
              zones,
            });
            return { ...it, offerings: it.offerings.map((o, z) => ({ ...o, price: o.price * (1 + 0.4 * z) })) };
          });
          const spread = {
            maxSkew,
            topologyKey: zoneKey,
            whenUnsatisfiable: 'DoNotSchedule' as const,
            labelSelector: { matchLabels: { app: 'web' } },
          };
          const pods = Array.from({ length: n }, (_, i) =>
            makePod({
              name: `w${i}`,
              cpu: shape.cpu,
              memory: `${Math.min(shape.mem, 2)}Gi`,
              labels: { app: 'web' },
              topologySpreadConstraints: [spread],
            }),
          );
          const input = { pods, nodePools: [makeNodePool()], instanceTypes: types };
          const lb = lowerBound(input, { solveLp, maxIterations: 10, domains: 'karpenter' });
          for (const counts of compositions(n, nz)) {
            // Each zone's share packed on its own (a NodePool confined to that zone), the results joined.
            let next = 0;
            const parts = counts.map((c, z) => {
              const share = pods
                .slice(next, (next += c))
                .map((p) => ({ ...p, spec: { ...p.spec, topologySpreadConstraints: [] } }));
              const pool = makeNodePool({
                requirements: [{ key: zoneKey, operator: 'In', values: [zones[z] ?? 'z1'] }],
              });
              const r = solve({ pods: share, nodePools: [pool], instanceTypes: types });
              return {
                ...r,
                newNodeClaims: r.newNodeClaims.map((c) => ({
                  ...c,
                  labels: { ...c.labels, [hostname]: `${zones[z] ?? ''}-${c.labels[hostname] ?? ''}` },
                })),
              };
            });
            const joined = {
              existingNodes: [],
              nominated: [],
              unplaced: parts.flatMap((r) => r.unplaced),
              newNodeClaims: parts.flatMap((r) => r.newNodeClaims),
              cost: parts.reduce((sum, r) => sum + r.cost, 0),
            };
            if (joined.unplaced.length > 0 || checkPlacement(input, joined, { domains: 'karpenter' }).length > 0)
              continue;
            expect(lb.lowerBound).toBeLessThanOrEqual(joined.cost + 1e-9);
          }
        },
      ),
      { numRuns: 60, seed: 5 },
    );
  });

  it('splits zone-spread pods over every zone the NodePool offers when judged with Karpenter domains', async () => {
    const solveLp = await loadHighs();
    // One 4-pod node in z1 (0.40) is cheapest, but maxSkew 1 over z1 and z2 needs two pods in each zone; z2 is dearer.
    const big = makeInstanceType({ name: 'big', cpu: 4, memGi: 16, price: 0.4, zones: ['z1', 'z2'] });
    const small = makeInstanceType({ name: 'small', cpu: 2, memGi: 8, price: 0.25, zones: ['z1', 'z2'] });
    const dearer = (it: InstanceType): InstanceType => ({
      ...it,
      offerings: it.offerings.map((o) => (o.zone === 'z2' ? { ...o, price: o.price * 2 } : o)),
    });
    const spread = {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule' as const,
      labelSelector: { matchLabels: { app: 'web' } },
    };
    const pods = Array.from({ length: 4 }, (_, i) =>
      makePod({ name: `p${i}`, cpu: '1', memory: '1Gi', labels: { app: 'web' }, topologySpreadConstraints: [spread] }),
    );
    const input = { pods, nodePools: [makeNodePool()], instanceTypes: [dearer(big), dearer(small)] };
    expect(lowerBound(input, { solveLp }).lowerBound).toBeCloseTo(0.4, 9);
    // z1: one small (0.25); z2: one small at twice the price (0.50).
    expect(lowerBound(input, { solveLp, domains: 'karpenter' }).lowerBound).toBeCloseTo(0.75, 9);
    const r = solve(input);
    expect(checkPlacement(input, r, { domains: 'karpenter' })).toEqual([]);
    expect(r.cost).toBeCloseTo(0.75, 9);
  });

  it('prices identical pods at their exact cheapest cover, and only when no node can mix classes', async () => {
    const solveLp = await loadHighs();
    const types = [
      makeInstanceType({ name: 'c3', cpu: 3, memGi: 64, price: 0.3, zones: ['z1'] }),
      makeInstanceType({ name: 'c5', cpu: 5, memGi: 64, price: 0.45, zones: ['z1'] }),
    ];
    const pods = Array.from({ length: 4 }, (_, i) => makePod({ name: `p${i}`, cpu: '1', memory: '1Gi' }));
    const lb = lowerBound({ pods, nodePools: [makeNodePool()], instanceTypes: types }, { solveLp });
    // The LP may buy 4/3 of a c3 (0.40); whole nodes cost at least one c5.
    expect(lb.lpBound).toBeCloseTo(0.4, 6);
    expect(lb.classCoverBound).toBeCloseTo(0.45, 9);
    expect(lb.lowerBound).toBeCloseTo(0.45, 9);
    const mixed = [...pods, makePod({ name: 'big', cpu: '2', memory: '1Gi' })];
    expect(
      lowerBound({ pods: mixed, nodePools: [makeNodePool()], instanceTypes: types }, { solveLp }).classCoverBound,
    ).toBe(0);
  });

  it('counts whole nodes under a NodePool limit where the LP would buy half a node', async () => {
    const solveLp = await loadHighs();
    const cheap = makeInstanceType({ name: 'cheap', cpu: 4, memGi: 16, price: 0.2, zones: ['z1'] });
    const dear = makeInstanceType({ name: 'dear', cpu: 4, memGi: 16, price: 0.4, zones: ['z1'] });
    const pods = Array.from({ length: 6 }, (_, i) => makePod({ name: `p${i}`, cpu: '1', memory: '1Gi' }));
    const input = {
      pods,
      nodePools: [makeNodePool({ name: 'limited', weight: 10, limits: { cpu: '4' } }), makeNodePool({ name: 'open' })],
      instanceTypesByNodePool: { limited: [cheap], open: [dear] },
      instanceTypes: [cheap, dear],
    };
    const lb = lowerBound(input, { solveLp });
    // The LP fills the limited pool's one node and buys half a dear one (0.2 + 0.2); whole nodes cost 0.2 + 0.4.
    expect(lb.lpBound).toBeCloseTo(0.4, 6);
    expect(lb.wholeNodesBound).toBeCloseTo(0.6, 5);
    const r = solve(input);
    expect(checkPlacement(input, r)).toEqual([]);
    expect(lb.lowerBound).toBeLessThanOrEqual(r.cost + 1e-9);
    expect(r.cost).toBeCloseTo(0.6, 9);
  });

  it('is tight on a uniform workload where whole nodes fill exactly', async () => {
    const solveLp = await loadHighs();
    const types = [makeInstanceType({ name: 'big', cpu: 4, memGi: 16, price: 0.4, zones: ['z1'] })];
    const pods = Array.from({ length: 8 }, (_, i) => makePod({ name: `p${i}`, cpu: '1', memory: '1Gi' }));
    const lb = lowerBound({ pods, nodePools: [makeNodePool()], instanceTypes: types }, { solveLp });
    expect(lb.converged).toBe(true);
    expect(lb.lowerBound).toBeCloseTo(0.8, 6);
  });
});
