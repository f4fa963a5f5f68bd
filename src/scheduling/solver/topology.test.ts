// Topology spread and pod (anti-)affinity, after Karpenter's topology_test.go: zonal and hostname spread, maxSkew
// against existing pods, minDomains, nodeTaintsPolicy / nodeAffinityPolicy, matchLabelKeys, ScheduleAnyway,
// affinity and anti-affinity on hostname and zone (including the inverse direction and namespaces). Pods counted
// by a selector they do not carry are covered too: the final placement must hold for the pods that carry it.
import { describe, expect, it } from 'vitest';
import type { ExistingNode, Pod, PodAffinityTerm, TopologySpreadConstraint } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { countBy, landings, sortedCounts } from '../testing/placement.js';
import { solve } from './solve.js';

const zone = 'topology.kubernetes.io/zone';
const host = 'kubernetes.io/hostname';
const labels = { app: 'web' };
const spread = (over: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint => ({
  maxSkew: 1,
  topologyKey: zone,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: labels },
  ...over,
});
const spreadPods = (n: number, c: TopologySpreadConstraint, extra: Partial<Pod['spec']> = {}): Pod[] =>
  Array.from({ length: n }, () =>
    makePod({ labels, cpu: '100m', memory: '100Mi', topologySpreadConstraints: [c], ...extra }),
  );
const keys = (pods: readonly Pod[]): string[] => pods.map((p) => `default/${p.metadata.name}`);
const nodeIn = (name: string, z: string, pods: Pod[] = []): ExistingNode => ({
  name,
  labels: {
    [host]: name,
    [zone]: z,
    'karpenter.sh/nodepool': 'default',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
  },
  allocatable: { cpu: '1', memory: '1Gi', pods: '110' },
  pods,
});
const run = (pods: Pod[], extra: { nodes?: ExistingNode[]; pool?: ReturnType<typeof makeNodePool> } = {}) =>
  solve({ pods, nodes: extra.nodes, nodePools: [extra.pool ?? makeNodePool()], instanceTypes: smallCatalog() });

describe('topology spread', () => {
  it('balances pods across zones', () => {
    const pods = spreadPods(6, spread());
    expect(sortedCounts(countBy(run(pods), keys(pods), zone))).toEqual([2, 2, 2]);
  });

  it('respects the NodePool zones as the domains', () => {
    const pool = makeNodePool({
      requirements: [{ key: zone, operator: 'In', values: ['test-zone-a', 'test-zone-b'] }],
    });
    const pods = spreadPods(4, spread());
    const counts = countBy(run(pods, { pool }), keys(pods), zone);
    expect(counts).toEqual({ 'test-zone-a': 2, 'test-zone-b': 2 });
  });

  it('says which domain holds the fewest matching pods and the skew one more would make', () => {
    // The NodePool allows only zone a, which already holds a matching pod; zone b holds none (its node is full).
    const pool = makeNodePool({ requirements: [{ key: zone, operator: 'In', values: ['test-zone-a'] }] });
    const existing = [
      nodeIn('a1', 'test-zone-a', [makePod({ labels, cpu: '1' })]),
      nodeIn('b1', 'test-zone-b', [makePod({ cpu: '1' })]),
    ];
    const r = run(spreadPods(1, spread()), { nodes: existing, pool });
    const reason = r.unplaced[0]?.reasons.find((x) => x.target === 'nodepool/default');
    expect(reason?.message).toBe(
      'incompatible with nodepool "default", topology spread on topology.kubernetes.io/zone (maxSkew 1) cannot be satisfied here: matching pods: test-zone-a has 1 (the only domain this node may be in); test-zone-b has 0, the fewest; one more in test-zone-a would make the skew 2 > maxSkew 1',
    );
  });

  it('counts existing matching pods and fills the emptier zones first', () => {
    const existing = [nodeIn('a1', 'test-zone-a', [makePod({ labels }), makePod({ labels })])];
    const pods = spreadPods(4, spread());
    const counts = countBy(run(pods, { nodes: existing }), keys(pods), zone);
    expect(counts).toEqual({ 'test-zone-b': 2, 'test-zone-c': 2 });
  });

  it('does not count pods that do not match the selector', () => {
    const existing = [
      nodeIn('a1', 'test-zone-a', [makePod({ labels: { app: 'other' } }), makePod({ labels: { app: 'other' } })]),
    ];
    const pods = spreadPods(3, spread());
    expect(sortedCounts(countBy(run(pods, { nodes: existing }), keys(pods), zone))).toEqual([1, 1, 1]);
  });

  it('spreads over hostnames: at most maxSkew matching pods per node', () => {
    const pods = spreadPods(5, spread({ topologyKey: host, maxSkew: 2 }));
    const r = run(pods);
    const perNode = [...landings(r).values()].reduce<Record<string, number>>(
      (m, l) => ({ ...m, [l.where]: (m[l.where] ?? 0) + 1 }),
      {},
    );
    expect(Math.max(...Object.values(perNode))).toBeLessThanOrEqual(2);
    expect(r.newNodeClaims).toHaveLength(3);
  });

  it('with minDomains above the domains that exist, treats the minimum as zero', () => {
    const pool = makeNodePool({
      requirements: [{ key: zone, operator: 'In', values: ['test-zone-a', 'test-zone-b'] }],
    });
    const pods = spreadPods(4, spread({ minDomains: 3 }));
    const r = run(pods, { pool });
    expect(r.unplaced).toHaveLength(2);
    expect(r.unplaced[0]?.reasons.map((x) => x.constraint)).toContain('topology-spread');
  });

  it('nodeAffinityPolicy Honor ignores zones the pod cannot use; Ignore counts them', () => {
    const existing = [nodeIn('c1', 'test-zone-c')];
    const onlyAB = {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: zone, operator: 'In' as const, values: ['test-zone-a', 'test-zone-b'] }] },
            ],
          },
        },
      },
    };
    const honor = spreadPods(4, spread(), onlyAB);
    expect(run(honor, { nodes: existing }).unplaced).toEqual([]);
    const ignore = spreadPods(4, spread({ nodeAffinityPolicy: 'Ignore' }), onlyAB);
    // zone c can never receive a pod, so with Ignore its zero count caps the others at maxSkew
    expect(run(ignore, { nodes: existing }).unplaced).toHaveLength(2);
  });

  it('one spread shared by pods with different node filters holds for each: each owner counts only its own nodes', () => {
    // The large owner goes first and may use any zone; two pods confined to zone a (one carrying the constraint, one
    // merely counted) must go there. The large owner may not sit in zone a with them, or zone a would hold 3 to 0.
    const big = makePod({ name: 'big', labels, cpu: '3', topologySpreadConstraints: [spread()] });
    const inA = { nodeSelector: { [zone]: 'test-zone-a' } };
    const owner = makePod({ name: 'owner-a', labels, cpu: '500m', topologySpreadConstraints: [spread()], ...inA });
    const counted = makePod({ name: 'counted-a', labels, cpu: '500m', ...inA });
    const r = run([big, owner, counted]);
    expect(r.unplaced).toEqual([]);
    const at = landings(r);
    expect(at.get('default/owner-a')?.labels[zone]).toBe('test-zone-a');
    expect(at.get('default/counted-a')?.labels[zone]).toBe('test-zone-a');
    expect(at.get('default/big')?.labels[zone]).not.toBe('test-zone-a');
  });

  it('an owner filtering by a label other than the key counts only matching nodes (arch)', () => {
    // The arm64 owners see only arm64 nodes: amd64 pods of the same app in zone b do not fill zone b for them.
    const amd = Array.from({ length: 4 }, (_, i) =>
      makePod({
        name: `amd${i}`,
        labels,
        cpu: '100m',
        nodeSelector: { [zone]: 'test-zone-b', 'kubernetes.io/arch': 'amd64' },
      }),
    );
    const arm = spreadPods(3, spread(), { nodeSelector: { 'kubernetes.io/arch': 'arm64' } });
    const catalog = [
      ...smallCatalog(),
      ...smallCatalog().map((it) => ({
        ...it,
        name: `${it.name}-arm`,
        labels: { ...it.labels, 'kubernetes.io/arch': 'arm64' },
      })),
    ];
    const r = solve({ pods: [...amd, ...arm], nodePools: [makeNodePool()], instanceTypes: catalog });
    expect(r.unplaced).toEqual([]);
    expect(sortedCounts(countBy(r, keys(arm), zone))).toEqual([1, 1, 1]);
  });

  it('nodeTaintsPolicy Honor skips domains of nodes whose taints the pod does not tolerate', () => {
    const tainted = { ...nodeIn('c1', 'test-zone-c'), taints: [{ key: 'x', effect: 'NoSchedule' as const }] };
    const pool = makeNodePool({
      requirements: [{ key: zone, operator: 'In', values: ['test-zone-a', 'test-zone-b'] }],
    });
    const pods = spreadPods(4, spread({ nodeTaintsPolicy: 'Honor' }));
    expect(run(pods, { nodes: [tainted], pool }).unplaced).toEqual([]);
    const ignored = spreadPods(4, spread());
    expect(run(ignored, { nodes: [tainted], pool }).unplaced).toHaveLength(2);
  });

  it('matchLabelKeys spreads each revision on its own', () => {
    const c = spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['rev'] });
    const v1 = Array.from({ length: 3 }, () =>
      makePod({ labels: { app: 'web', rev: '1' }, cpu: '100m', topologySpreadConstraints: [c] }),
    );
    const v2 = Array.from({ length: 3 }, () =>
      makePod({ labels: { app: 'web', rev: '2' }, cpu: '100m', topologySpreadConstraints: [c] }),
    );
    const r = run([...v1, ...v2]);
    expect(sortedCounts(countBy(r, keys(v1), zone))).toEqual([1, 1, 1]);
    expect(sortedCounts(countBy(r, keys(v2), zone))).toEqual([1, 1, 1]);
  });

  it('relaxes ScheduleAnyway when it cannot be met', () => {
    const pool = makeNodePool({ requirements: [{ key: zone, operator: 'In', values: ['test-zone-a'] }] });
    const existing = [nodeIn('b1', 'test-zone-b')];
    const pods = spreadPods(3, spread({ whenUnsatisfiable: 'ScheduleAnyway' }));
    expect(run(pods, { nodes: existing, pool }).unplaced).toEqual([]);
  });

  it('keeps pods that only match the selector from breaking the spread of the pods that carry it', () => {
    const carriers = spreadPods(3, spread());
    const counted = Array.from({ length: 9 }, () => makePod({ labels, cpu: '100m', memory: '100Mi' }));
    const r = run([...carriers, ...counted]);
    const all = countBy(r, keys([...carriers, ...counted]), zone);
    const c = sortedCounts(all);
    expect((c[c.length - 1] ?? 0) - (c[0] ?? 0)).toBeLessThanOrEqual(1);
    expect(r.unplaced).toEqual([]);
  });

  it('a pod that does not match its own selector does not add to the count', () => {
    const c = spread({ labelSelector: { matchLabels: { app: 'db' } } });
    const pods = Array.from({ length: 6 }, () =>
      makePod({ labels: { app: 'web' }, cpu: '100m', topologySpreadConstraints: [c] }),
    );
    const r = run(pods);
    expect(r.unplaced).toEqual([]);
  });
});

describe('pod affinity and anti-affinity', () => {
  const term = (key: string, sel: Record<string, string>, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm => ({
    topologyKey: key,
    labelSelector: { matchLabels: sel },
    ...extra,
  });

  it('co-locates a pod with the pods its affinity selects (hostname)', () => {
    const target = makePod({ name: 'db', labels: { app: 'db' }, cpu: '100m' });
    const follower = makePod({
      name: 'web',
      cpu: '100m',
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(host, { app: 'db' })] } },
    });
    const l = landings(run([target, follower]));
    expect(l.get('default/web')?.where).toBe(l.get('default/db')?.where);
  });

  it('co-locates in the zone of an existing matching pod', () => {
    const existing = [nodeIn('b1', 'test-zone-b', [makePod({ labels: { app: 'db' } })])];
    const pods = Array.from({ length: 3 }, () =>
      makePod({
        cpu: '500m',
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'db' })] } },
      }),
    );
    const r = run(pods, { nodes: existing });
    expect(countBy(r, keys(pods), zone, { b1: existing[0]?.labels ?? {} })).toEqual({ 'test-zone-b': 3 });
  });

  it('lets the first self-selecting pod start a domain and the rest follow', () => {
    const pods = Array.from({ length: 4 }, () =>
      makePod({
        labels: { app: 'cache' },
        cpu: '100m',
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'cache' })] } },
      }),
    );
    expect(Object.keys(countBy(run(pods), keys(pods), zone))).toHaveLength(1);
  });

  it('starts a self-selecting group only when nothing else can be placed, so a kube-scheduler binding order exists', () => {
    // starter would be placed first (largest) and, starting its group at once, pick a zone of its own; the other
    // matching pod follows its own term to zone b and could bind first, leaving starter with nothing to match.
    const starter = makePod({
      name: 'starter',
      cpu: '2',
      labels: { app: 'c' },
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'c' })] } },
    });
    const follower = makePod({
      name: 'follower',
      cpu: '1',
      labels: { app: 'c' },
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'd' })] } },
    });
    const anchor = makePod({
      name: 'anchor',
      cpu: '100m',
      labels: { app: 'd' },
      nodeSelector: { [zone]: 'test-zone-b' },
    });
    const l = landings(run([starter, follower, anchor]));
    expect(l.get('default/follower')?.labels[zone]).toBe('test-zone-b');
    expect(l.get('default/starter')?.labels[zone]).toBe('test-zone-b');
  });

  it('does not schedule a pod whose affinity selects nothing and that does not select itself', () => {
    const pod = makePod({
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(host, { app: 'missing' })] } },
    });
    const r = run([pod]);
    expect(r.unplaced[0]?.reasons.map((x) => x.constraint)).toContain('pod-affinity');
  });

  it('separates pods with hostname anti-affinity onto their own nodes', () => {
    const pods = Array.from({ length: 4 }, () =>
      makePod({
        labels: { app: 'zk' },
        cpu: '100m',
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(host, { app: 'zk' })] } },
      }),
    );
    const r = run(pods);
    expect(r.newNodeClaims).toHaveLength(4);
  });

  it('limits zone anti-affinity to one pod per zone', () => {
    const pods = Array.from({ length: 4 }, () =>
      makePod({
        labels: { app: 'zk' },
        cpu: '100m',
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'zk' })] } },
      }),
    );
    const r = run(pods);
    expect(r.unplaced).toHaveLength(1);
    expect(sortedCounts(countBy(r, keys(pods), zone))).toEqual([1, 1, 1]);
  });

  it('respects the anti-affinity of pods already running (inverse direction)', () => {
    const guard = makePod({
      labels: { app: 'guard' },
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'web' })] } },
    });
    const existing = [nodeIn('a1', 'test-zone-a', [guard])];
    const pods = Array.from({ length: 3 }, () => makePod({ labels: { app: 'web' }, cpu: '100m' }));
    const counts = countBy(run(pods, { nodes: existing }), keys(pods), zone, { a1: existing[0]?.labels ?? {} });
    expect(counts['test-zone-a']).toBeUndefined();
  });

  it('counts only pods in the namespaces the term names (namespaces and namespaceSelector)', () => {
    const other = makePod({ namespace: 'other', labels: { app: 'db' } });
    const existing = [nodeIn('a1', 'test-zone-a', [other])];
    const own = makePod({
      name: 'own-ns',
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'db' })] } },
    });
    expect(run([own], { nodes: existing }).unplaced).toHaveLength(1);
    const named = makePod({
      name: 'named',
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [term(zone, { app: 'db' }, { namespaces: ['other'] })],
        },
      },
    });
    expect(run([named], { nodes: existing }).unplaced).toEqual([]);
    const bySelector = makePod({
      name: 'sel',
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term(zone, { app: 'db' }, { namespaceSelector: { matchLabels: { team: 'data' } } }),
          ],
        },
      },
    });
    const r = solve({
      pods: [bySelector],
      nodes: existing,
      nodePools: [makeNodePool()],
      instanceTypes: smallCatalog(),
      namespaces: { other: { team: 'data' } },
    });
    expect(r.unplaced).toEqual([]);
  });

  it('relaxes preferred anti-affinity when it cannot be met', () => {
    const pool = makeNodePool({ requirements: [{ key: zone, operator: 'In', values: ['test-zone-a'] }] });
    const pods = Array.from({ length: 2 }, () =>
      makePod({
        labels: { app: 'x' },
        cpu: '100m',
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term(zone, { app: 'x' }) }],
          },
        },
      }),
    );
    expect(run(pods, { pool }).unplaced).toEqual([]);
  });
});
