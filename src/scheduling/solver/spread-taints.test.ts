// Zone spread with nodeTaintsPolicy Honor: owners count only nodes whose NoSchedule / NoExecute taints they
// tolerate (kube-scheduler's matchNodeInclusionPolicies), so owners that tolerate differently see different counts
// and keep separate groups even when they share a selector.
import { describe, expect, it } from 'vitest';
import type { Taint } from '../../api/index.js';
import { checkPlacement } from '../check/check.js';
import type { ExistingNode, Pod, SchedulingInput, TopologySpreadConstraint } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { countBy, sortedCounts } from '../testing/placement.js';
import { solve } from './solve.js';

const zone = 'topology.kubernetes.io/zone';
const host = 'kubernetes.io/hostname';
const labels = { app: 'web' };
const team: Taint = { key: 'team', effect: 'NoSchedule' };
const tolerateTeam = [{ key: 'team', operator: 'Exists' as const }];
const spread: TopologySpreadConstraint = {
  maxSkew: 1,
  topologyKey: zone,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: labels },
  nodeTaintsPolicy: 'Honor',
};

const owners = (prefix: string, n: number, extra: Partial<Pod['spec']> = {}): Pod[] =>
  Array.from({ length: n }, (_, i) =>
    makePod({ name: `${prefix}${i}`, cpu: '100m', labels, topologySpreadConstraints: [spread], ...extra }),
  );
const keys = (pods: readonly Pod[]): string[] => pods.map((p) => `default/${p.metadata.name}`);
const taintedNode = (name: string, z: string, pods: Pod[]): ExistingNode => ({
  name,
  labels: {
    [host]: name,
    [zone]: z,
    'karpenter.sh/nodepool': 'team',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
  },
  allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
  taints: [team],
  pods,
});

/** Solves and checks: every pod placed, and the independent checker agrees. */
function solved(input: SchedulingInput): ReturnType<typeof solve> {
  const r = solve(input);
  expect(r.unplaced).toEqual([]);
  expect(checkPlacement(input, r)).toEqual([]);
  return r;
}

describe('topology spread with nodeTaintsPolicy Honor', () => {
  it('does not count pods on a node whose taint the owners do not tolerate: they fill its zone like the others', () => {
    // Three matching pods run on a team-tainted node in zone a; owners without the toleration do not see them.
    const running = Array.from({ length: 3 }, (_, i) =>
      makePod({ name: `r${i}`, cpu: '100m', labels, tolerations: tolerateTeam }),
    );
    const pods = owners('o', 6);
    const r = solved({
      pods,
      nodes: [taintedNode('t1', 'test-zone-a', running)],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(countBy(r, keys(pods), zone)).toEqual({ 'test-zone-a': 2, 'test-zone-b': 2, 'test-zone-c': 2 });
  });

  it('owners that tolerate the taint count those pods and go to the other zones', () => {
    const running = Array.from({ length: 3 }, (_, i) =>
      makePod({ name: `r${i}`, cpu: '100m', labels, tolerations: tolerateTeam }),
    );
    const pods = owners('o', 6, { tolerations: tolerateTeam });
    const r = solved({
      pods,
      nodes: [taintedNode('t1', 'test-zone-a', running)],
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
    });
    expect(countBy(r, keys(pods), zone)).toEqual({ 'test-zone-b': 3, 'test-zone-c': 3 });
  });

  it('keeps each owner set within maxSkew when tolerating and non-tolerating owners share a selector and a tainted NodePool is preferred', () => {
    const pools = [
      makeNodePool({
        name: 'team',
        weight: 10,
        taints: [team],
        requirements: [{ key: zone, operator: 'In', values: ['test-zone-a'] }],
      }),
      makeNodePool(),
    ];
    const tolerating = owners('t', 5, { tolerations: tolerateTeam });
    const plain = owners('p', 6);
    const r = solved({ pods: [...tolerating, ...plain], nodePools: pools, instanceTypes: smallCatalog() });
    expect(sortedCounts(countBy(r, keys(plain), zone))).toEqual([2, 2, 2]);
  });
});
