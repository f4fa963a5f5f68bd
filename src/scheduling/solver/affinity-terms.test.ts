// Pods with several required pod-affinity terms, placed as kube-scheduler's InterPodAffinity filter judges them:
// only a pod matching every term counts, each term's domain must hold one, and the first pod of a group may start
// it only when no pod anywhere matches all the terms and it matches them all itself.
import { describe, expect, it } from 'vitest';
import { checkPlacement } from '../check/check.js';
import type { ExistingNode, Pod, PodAffinityTerm, SchedulingInput } from '../model.js';
import { makeNodePool, makePod, smallCatalog } from '../testing/factories.js';
import { landings } from '../testing/placement.js';
import { solve } from './solve.js';

const zone = 'topology.kubernetes.io/zone';
const host = 'kubernetes.io/hostname';
const term = (topologyKey: string, matchLabels: Record<string, string>): PodAffinityTerm => ({
  topologyKey,
  labelSelector: { matchLabels },
});
const affine = (name: string, labels: Record<string, string>, terms: PodAffinityTerm[]): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels,
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } },
  });
const running = (name: string, labels: Record<string, string>): Pod => makePod({ name, cpu: '100m', labels });
const nodeIn = (name: string, z: string, pods: Pod[]): ExistingNode => ({
  name,
  labels: {
    [host]: name,
    [zone]: z,
    'karpenter.sh/nodepool': 'default',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
  },
  allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
  pods,
});
const input = (pods: Pod[], nodes: ExistingNode[] = []): SchedulingInput => ({
  pods,
  nodes,
  nodePools: [makeNodePool()],
  instanceTypes: smallCatalog(),
});

/** Solves and checks: every pod placed, and the independent checker agrees. */
function solved(i: SchedulingInput): ReturnType<typeof landings> {
  const r = solve(i);
  expect(r.unplaced).toEqual([]);
  expect(checkPlacement(i, r)).toEqual([]);
  return landings(r, Object.fromEntries((i.nodes ?? []).map((n) => [n.name, n.labels])));
}

describe('several required pod-affinity terms', () => {
  it('goes where one pod matches both terms, not where different pods match one each', () => {
    // zone-a holds more pods matching each term alone; only zone-b holds a pod matching both.
    const a = nodeIn('a1', 'test-zone-a', [
      running('d1', { app: 'db' }),
      running('d2', { app: 'db' }),
      running('t1', { tier: 'data' }),
      running('t2', { tier: 'data' }),
    ]);
    const b = nodeIn('b1', 'test-zone-b', [running('both', { app: 'db', tier: 'data' })]);
    const pods = ['p1', 'p2', 'p3'].map((n) =>
      affine(n, {}, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]),
    );
    const l = solved(input(pods, [a, b]));
    for (const p of pods) expect(l.get(`default/${p.metadata.name}`)?.labels[zone]).toBe('test-zone-b');
  });

  it('with a zone term and a hostname term, joins the node of a pod matching both', () => {
    // a1 holds a pod for each term alone (more of them than b1 holds); only b1 holds one matching both.
    const a = nodeIn('a1', 'test-zone-a', [
      running('d1', { app: 'db' }),
      running('c1', { role: 'cache' }),
      running('c2', { role: 'cache' }),
    ]);
    const b = nodeIn('b1', 'test-zone-a', [running('both', { app: 'db', role: 'cache' })]);
    const p = affine('p', {}, [term(zone, { app: 'db' }), term(host, { role: 'cache' })]);
    const q = affine('q', {}, [term(zone, { app: 'db' }), term(host, { app: 'db' })]);
    const l = solved(input([p, q], [a, b]));
    expect(l.get('default/p')?.where).toBe('node/b1');
    expect(['node/a1', 'node/b1']).toContain(l.get('default/q')?.where);
  });

  it('starts a self-affine group with two terms while pods matching one term run elsewhere, and keeps it on one node', () => {
    // The db pod in zone-a matches the zone term only: kube-scheduler's first-pod rule asks for no pod matching all
    // the terms, so the group may start in any zone; its hostname term then keeps every member on one node.
    const a = nodeIn('a1', 'test-zone-a', [running('d1', { app: 'db' })]);
    const labels = { app: 'db', tier: 'data' };
    const pods = ['m1', 'm2', 'm3', 'm4'].map((n) =>
      affine(n, labels, [term(zone, { app: 'db' }), term(host, { tier: 'data' })]),
    );
    const l = solved(input(pods, [a]));
    expect(new Set(pods.map((p) => l.get(`default/${p.metadata.name}`)?.where)).size).toBe(1);
  });

  it('does not place a pod matching only some of its own terms while nothing matches them all', () => {
    const p = affine('p', { app: 'db' }, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]);
    const r = solve(
      input([p], [nodeIn('a1', 'test-zone-a', [running('d1', { app: 'db' }), running('t1', { tier: 'data' })])]),
    );
    expect(r.unplaced.map((u) => u.pod)).toEqual(['default/p']);
    expect(r.unplaced[0]?.reasons.map((x) => x.constraint)).toContain('pod-affinity');
    expect(r.unplaced[0]?.reasons.map((x) => x.message).join(' ')).toContain('no pod matches all its required terms');
  });

  it('followers with two terms join a group started by a pod matching both', () => {
    const labels = { app: 'db', tier: 'data' };
    const leader = affine('leader', labels, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]);
    const followers = ['f1', 'f2'].map((n) => affine(n, {}, [term(zone, { app: 'db' }), term(host, { tier: 'data' })]));
    const l = solved(input([leader, ...followers]));
    for (const f of followers) expect(l.get(`default/${f.metadata.name}`)?.where).toBe(l.get('default/leader')?.where);
  });
});
