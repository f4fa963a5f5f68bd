// NodePool limits: a planned NodeClaim holds the limits at the largest instance type it may launch as, so when the
// limits bind the planned NodeClaims give up their larger options and the pods place in the same pass; the limits
// are never exceeded, and a pod is left over only when no type that holds it fits under what is left.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceType, NodePool, Pod, SchedulingResult } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { solve } from './solve.js';

/** A pod with host port 80: no two share a NodeClaim, so each needs its own. */
const portPod = (cpu: string): Pod =>
  makePod({
    containers: [
      { name: 'c', ports: [{ containerPort: 80, hostPort: 80 }], resources: { requests: { cpu, memory: '1Gi' } } },
    ],
  });

const small = makeInstanceType({ name: 'm.4x', cpu: 4, memGi: 16, price: 0.2 });
const large = makeInstanceType({ name: 'm.16x', cpu: 16, memGi: 64, price: 0.8 });

describe('NodePool limits held by NodeClaims planned in the same pass', () => {
  it('places every pod when the cheapest types fit under the limit, though the largest would not', () => {
    const pods = Array.from({ length: 4 }, () => portPod('1'));
    const r = solve({ pods, nodePools: [makeNodePool({ limits: { cpu: '16' } })], instanceTypes: [small, large] });
    expect(r.unplaced).toEqual([]);
    expect(r.newNodeClaims.map((c) => c.instanceTypeOptions)).toEqual([['m.4x'], ['m.4x'], ['m.4x'], ['m.4x']]);
  });

  it('keeps the larger options while the limit leaves room for them', () => {
    const r = solve({
      pods: [portPod('1')],
      nodePools: [makeNodePool({ limits: { cpu: '100' } })],
      instanceTypes: [small, large],
    });
    expect(r.newNodeClaims[0]?.instanceTypeOptions).toEqual(['m.4x', 'm.16x']);
  });

  it('when the limit truly binds, names what holds it and the limit that would do', () => {
    const pods = Array.from({ length: 5 }, () => portPod('1'));
    const r = solve({ pods, nodePools: [makeNodePool({ limits: { cpu: '16' } })], instanceTypes: [small, large] });
    expect(r.newNodeClaims).toHaveLength(4);
    const reason = r.unplaced[0]?.reasons.find((x) => x.constraint === 'nodepool-limits');
    expect(reason?.message).toContain(
      'limit cpu 16 CPU: 0 CPU in use, 16 CPU held by 4 NodeClaims planned now, 0 CPU left; the smallest instance type that holds the pod (m.4x) needs 4 CPU',
    );
    expect(reason?.details).toMatchObject({ resource: 'cpu', smallestInstanceType: 'm.4x', raiseTo: '20 CPU' });
  });

  it('says limits, not size, when only the types the limit rules out would hold the pod', () => {
    const r = solve({
      pods: [makePod({ cpu: '6' })],
      nodePools: [makeNodePool({ limits: { cpu: '8' } })],
      instanceTypes: [small, large],
    });
    expect(r.unplaced[0]?.reasons.map((x) => x.constraint)).toEqual(['nodepool-limits']);
    expect(r.unplaced[0]?.reasons[0]?.details).toMatchObject({ smallestInstanceType: 'm.16x', raiseTo: '16 CPU' });
  });
});

describe('NodePool limits that the cheapest fleet stays under', () => {
  // Each node costs 0.01 more, and types from 16 CPU cost half as much again per CPU: the cheapest fleet is 8-CPU
  // nodes. Each planned NodeClaim holds the limits at its largest option (64 CPU) until the limits bind, so a packing
  // of many NodeClaims runs into them where Karpenter's packing, growing one NodeClaim into the largest type, does not.
  const catalog = [1, 2, 4, 8, 16, 32, 64].map((cpu) =>
    makeInstanceType({ name: `m.${cpu}x`, cpu, memGi: cpu * 4, price: 0.01 + cpu * 0.05 * (cpu >= 16 ? 1.5 : 1) }),
  );
  const pods = (): Pod[] =>
    Array.from({ length: 40 }, (_, i) => makePod({ name: `p${i}`, cpu: '900m', memory: '1Gi' }));
  /** The pods solved with no limits and under a 200 CPU limit. */
  const both = (make: () => Pod[]): { free: SchedulingResult; limited: SchedulingResult } => ({
    free: solve({ pods: make(), nodePools: [makeNodePool()], instanceTypes: catalog }),
    limited: solve({ pods: make(), nodePools: [makeNodePool({ limits: { cpu: '200' } })], instanceTypes: catalog }),
  });

  it('launches the same fleet as with no limits', () => {
    const { free, limited } = both(pods);
    expect(free.newNodeClaims.map((c) => c.cheapest.instanceType)).toEqual(Array(5).fill('m.8x'));
    expect(limited.unplaced).toEqual([]);
    expect(limited.cost).toBeCloseTo(free.cost, 9);
    expect(limited.newNodeClaims.map((c) => c.cheapest.instanceType)).toEqual(Array(5).fill('m.8x'));
  });

  it('also when pods are spread over zones, where a packing of few NodeClaims stays under the limits', () => {
    const zonal = (): Pod[] =>
      ['test-zone-a', 'test-zone-b', 'test-zone-c'].flatMap((zone) =>
        Array.from({ length: 16 }, (_, i) =>
          makePod({
            name: `${zone}-${i}`,
            cpu: '900m',
            memory: '1Gi',
            nodeSelector: { 'topology.kubernetes.io/zone': zone },
          }),
        ),
      );
    const { free, limited } = both(zonal);
    expect(free.newNodeClaims.map((c) => c.cheapest.instanceType)).toEqual(Array(6).fill('m.8x'));
    expect(limited.unplaced).toEqual([]);
    expect(limited.cost).toBeCloseTo(free.cost, 9);
  });
});

const typeArb = fc.record({
  cpu: fc.constantFrom(1, 2, 4, 8, 16),
  memPerCpu: fc.constantFrom(2, 4, 8),
  priceFactor: fc.double({ min: 0.8, max: 1.2, noNaN: true }),
});
const podArb = fc.record({
  milli: fc.constantFrom(250, 500, 1000, 1500, 3000, 6000),
  memMi: fc.constantFrom(256, 1024, 4096),
  port: fc.boolean(),
});
const caseArb = fc.record({
  types: fc.array(typeArb, { minLength: 1, maxLength: 5 }),
  pods: fc.array(podArb, { minLength: 1, maxLength: 16 }),
  cpuLimit: fc.integer({ min: 1, max: 48 }),
  memLimitGi: fc.option(fc.integer({ min: 4, max: 192 }), { nil: undefined }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function inputOf(c: Case): { pods: Pod[]; nodePools: NodePool[]; instanceTypes: InstanceType[] } {
  const instanceTypes = c.types.map((t, i) =>
    makeInstanceType({
      name: `t${i}-${t.cpu}x${t.memPerCpu}`,
      cpu: t.cpu,
      memGi: t.cpu * t.memPerCpu,
      price: Math.round(t.cpu * (0.04 + 0.005 * t.memPerCpu) * t.priceFactor * 1000) / 1000,
    }),
  );
  const pods = c.pods.map((p, i) =>
    makePod({
      name: `p${i}`,
      containers: [
        {
          name: 'c',
          ports: p.port ? [{ containerPort: 80, hostPort: 80 }] : undefined,
          resources: { requests: { cpu: `${p.milli}m`, memory: `${p.memMi}Mi` } },
        },
      ],
    }),
  );
  const limits: Record<string, string> = { cpu: String(c.cpuLimit) };
  if (c.memLimitGi !== undefined) limits['memory'] = `${c.memLimitGi}Gi`;
  return { pods, nodePools: [makeNodePool({ limits })], instanceTypes };
}

/**
 * Per limited resource (milli-CPU, MiB), what the planned NodeClaims hold: at their largest option (what counts
 * against the limits) or at the type each launches as (its cheapest).
 */
function held(c: Case, r: SchedulingResult, at: 'largest' | 'launched'): { cpu: number; mem: number } {
  const sizes = new Map(c.types.map((t, i) => [`t${i}-${t.cpu}x${t.memPerCpu}`, t]));
  let cpu = 0;
  let mem = 0;
  for (const claim of r.newNodeClaims) {
    const names = at === 'largest' ? claim.instanceTypeOptions : [claim.cheapest.instanceType];
    const options = names.map((n) => sizes.get(n)).filter((t) => t !== undefined);
    cpu += Math.max(...options.map((t) => t.cpu * 1000));
    mem += Math.max(...options.map((t) => t.cpu * t.memPerCpu * 1024));
  }
  return { cpu, mem };
}

describe('NodePool limits (property)', () => {
  it('never exceeds the limits, and leaves a pod only when no type holding it fits under what is left', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = solve(inputOf(c));
        const memLimit = c.memLimitGi === undefined ? Number.POSITIVE_INFINITY : c.memLimitGi * 1024;
        const reserved = held(c, r, 'largest');
        expect(reserved.cpu).toBeLessThanOrEqual(c.cpuLimit * 1000);
        expect(reserved.mem).toBeLessThanOrEqual(memLimit);
        const h = held(c, r, 'launched');
        for (const u of r.unplaced) {
          const p = c.pods[Number(u.pod.replace('default/p', ''))];
          if (!p) throw new Error(`unknown pod ${u.pod}`);
          const fits = c.types.find(
            (t) =>
              t.cpu * 1000 >= p.milli &&
              t.cpu * t.memPerCpu * 1024 >= p.memMi &&
              t.cpu * 1000 <= c.cpuLimit * 1000 - h.cpu &&
              t.cpu * t.memPerCpu * 1024 <= memLimit - h.mem,
          );
          expect(fits, `${u.pod} left while a ${fits?.cpu}-CPU type fits under the limits`).toBeUndefined();
        }
      }),
      { numRuns: 150, seed: 29 },
    );
  });
});
