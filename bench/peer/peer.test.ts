import { describe, expect, it } from 'vitest';
import { peerArgs } from './peer-args.js';
import { peerRow, runTenon, type SideRun } from './peer-suite.js';
import { peerWorkloads } from './peer-workloads.js';

// The keys issue 31 names for a JSON line, in its order.
const issueKeys = [
  'suite',
  'workload',
  'pods',
  'karpenterPodsPerSecond',
  'tenonPodsPerSecond',
  'karpenterPodsPerCpuSecond',
  'tenonPodsPerCpuSecond',
  'cpuRatio',
  'wallRatio',
  'karpenterNodeClaims',
  'tenonNodeClaims',
  'karpenterCost',
  'tenonCost',
  'karpenterUnscheduled',
  'tenonUnscheduled',
];

const side = (seconds: number, cpuSeconds: number, extra: Partial<SideRun> = {}): SideRun => ({
  seconds,
  cpuSeconds,
  nodeClaims: 3,
  cost: 1.5,
  unscheduled: 0,
  ...extra,
});

describe('peer benchmark', () => {
  it('prints exactly the keys the issue names, with medians over rounds and ratios of Tenon over Karpenter', () => {
    const karpenter = [side(2, 4), side(1, 2), side(4, 8, { unscheduled: 1 })];
    const tenon = [side(0.1, 0.1), side(0.5, 0.5), side(0.2, 0.2)];
    const row = peerRow({ name: 'karpenter-diverse', pods: 1000 }, karpenter, tenon);
    expect(Object.keys(row)).toEqual(issueKeys);
    // Per-round CPU ratios 40, 4, 40: the median is 40; wall 20, 2, 20: 20.
    expect(row).toMatchObject({
      cpuRatio: 40,
      wallRatio: 20,
      karpenterPodsPerSecond: 500,
      tenonPodsPerSecond: 5000,
      karpenterPodsPerCpuSecond: 250,
      tenonPodsPerCpuSecond: 5000,
    });
    expect(row.karpenterUnscheduled).toBe(1);
  });

  it('rejects a bad flag with one line naming it', () => {
    expect(() => peerArgs(['--rounds', '0'])).toThrow('--rounds takes a positive integer');
    expect(() => peerArgs(['--workloads', 'diverse,nope'])).toThrow('--workloads: unknown nope');
    expect(() => peerArgs(['--size', '5'])).toThrow('unknown flag --size');
    expect(peerArgs(['--sizes=1000,5000', '--rounds', '2', '--workloads', 'cost'])).toMatchObject({
      sizes: [1000, 5000],
      rounds: 2,
      families: ['cost'],
    });
  });

  it("builds the workloads both sides read, and Tenon's side places every pod of them", () => {
    const ws = peerWorkloads({ sizes: [60], families: ['diverse', 'preferences', 'cost'] });
    expect(ws.map((w) => w.name)).toContain('preferences-ignore');
    expect(ws.map((w) => w.name)).not.toContain('cost-existing-nodes');
    const diverse = ws.find((w) => w.name === 'karpenter-diverse');
    if (!diverse) throw new Error('no diverse workload');
    const input = diverse.build(3);
    // What the Go side reads: plain JSON, a NodePool with limits as Karpenter's benchmark has.
    expect(JSON.parse(JSON.stringify(input))).toEqual(input);
    expect(input.nodePools[0]?.limits).toEqual({ cpu: '10000000', memory: '10000000Gi' });
    const run = runTenon(input);
    expect(run.unscheduled).toBe(0);
    expect(run.cpuSeconds).toBeGreaterThan(0);
  });
});
