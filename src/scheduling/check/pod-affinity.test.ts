import { describe, expect, it } from 'vitest';
import type { ExistingNode, Pod, PodAffinityTerm, SchedulingInput, SchedulingResult } from '../model.js';
import { makeInstanceType, makeNodePool, makePod } from '../testing/factories.js';
import { checkPlacement } from './check.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';
const zones = ['zone-a', 'zone-b'];

const term = (topologyKey: string, matchLabels: Record<string, string>): PodAffinityTerm => ({
  topologyKey,
  labelSelector: { matchLabels },
});

/** A pod with required pod affinity `terms`. */
const affine = (name: string, labels: Record<string, string>, terms: PodAffinityTerm[]): Pod =>
  makePod({
    name,
    cpu: '100m',
    labels,
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } },
  });

/** An existing node running `pods`; `extra` labels beside its zone and hostname. */
const node = (name: string, inZone: string, pods: Pod[], extra: Record<string, string> = {}): ExistingNode => ({
  name,
  labels: { [zone]: inZone, [hostname]: name, ...extra },
  allocatable: { cpu: '4', memory: '8Gi', pods: '20' },
  pods,
});

const key = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;

/** The pending pods, each bound to the named existing node. */
function place(nodes: ExistingNode[], placed: [Pod, string][]): { input: SchedulingInput; result: SchedulingResult } {
  const input: SchedulingInput = {
    pods: placed.map(([p]) => p),
    nodes,
    nodePools: [makeNodePool()],
    instanceTypes: [makeInstanceType({ name: 'm', cpu: 4, memGi: 8, price: 0.1, zones })],
  };
  const result: SchedulingResult = {
    existingNodes: placed.map(([p, n]) => ({ pod: key(p), node: n })),
    nominated: [],
    newNodeClaims: [],
    unplaced: [],
    cost: 0,
  };
  return { input, result };
}

function affinityViolations(c: { input: SchedulingInput; result: SchedulingResult }): string[] {
  return checkPlacement(c.input, c.result)
    .filter((v) => v.family === 'pod-affinity')
    .map((v) => v.pod ?? '')
    .sort();
}

const db = (name: string): Pod => makePod({ name, cpu: '100m', labels: { app: 'db' } });
const cache = (name: string): Pod => makePod({ name, cpu: '100m', labels: { app: 'cache' } });
const both = (name: string): Pod => makePod({ name, cpu: '100m', labels: { app: 'db', tier: 'data' } });

interface Case {
  name: string;
  build: () => { input: SchedulingInput; result: SchedulingResult };
  /** Pods the checker must flag. */
  flagged: string[];
}

// kube-scheduler (InterPodAffinity, satisfyPodAffinity / updateWithAffinityTerms): an existing pod counts only when
// it matches every required term; each term's domain of the node must hold such a pod. The first pod of a group
// may land anywhere only when no pod matches all the terms and it matches them all itself.
const cases: Case[] = [
  {
    name: 'different pods meeting different terms in the domain do not satisfy the pod',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]);
      const other = makePod({ name: 'other', cpu: '100m', labels: { tier: 'data' } });
      return place([node('n1', 'zone-a', [db('d1'), other])], [[p, 'n1']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'one pod matching both terms in the domain satisfies the pod',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]);
      return place([node('n1', 'zone-a', [both('b1')]), node('n2', 'zone-a', [])], [[p, 'n2']]);
    },
    flagged: [],
  },
  {
    name: 'a zone term and a hostname term: the pod must share the node with a pod matching both',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })]);
      return place([node('n1', 'zone-a', [both('b1')]), node('n2', 'zone-a', [])], [[p, 'n2']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'a zone term and a hostname term met on the node of a pod matching both',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })]);
      return place([node('n1', 'zone-a', [both('b1')])], [[p, 'n1']]);
    },
    flagged: [],
  },
  {
    name: 'a zone term met by one pod and a hostname term by another on the node: unmet',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' }), term(hostname, { app: 'cache' })]);
      return place([node('n1', 'zone-a', [db('d1'), cache('c1')])], [[p, 'n1']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'first pod: pods matching single terms elsewhere do not stop a pod matching all its terms from starting',
    build: () => {
      const p = affine('p', { app: 'db', tier: 'data' }, [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })]);
      const other = makePod({ name: 'other', cpu: '100m', labels: { tier: 'data' } });
      return place([node('n1', 'zone-a', [db('d1'), other]), node('n2', 'zone-b', [])], [[p, 'n2']]);
    },
    flagged: [],
  },
  {
    name: 'first pod: a pod matching only some of its own terms may not start',
    build: () => {
      const p = affine('p', { app: 'db' }, [term(zone, { app: 'db' }), term(zone, { tier: 'data' })]);
      return place([node('n1', 'zone-a', [])], [[p, 'n1']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'first pod: a pod matching all terms may not start where a pod matching all of them runs elsewhere',
    build: () => {
      const p = affine('p', { app: 'db', tier: 'data' }, [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })]);
      return place([node('n1', 'zone-a', [both('b1')]), node('n2', 'zone-b', [])], [[p, 'n2']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'first pod: a node without one of the topology keys fails even the first pod',
    build: () => {
      const p = affine('p', { app: 'db', tier: 'data' }, [term(zone, { app: 'db' }), term('rack', { tier: 'data' })]);
      return place([node('n1', 'zone-a', [])], [[p, 'n1']]);
    },
    flagged: ['default/p'],
  },
  {
    name: 'self-affine pods with two terms: the first starts, the others follow on its node and in its zone',
    build: () => {
      const labels = { app: 'db', tier: 'data' };
      const terms = [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })];
      const [a, b, c] = ['a', 'b', 'c'].map((n) => affine(n, labels, terms));
      return place(
        [node('n1', 'zone-a', []), node('n2', 'zone-a', [])],
        [
          [a as Pod, 'n1'],
          [b as Pod, 'n1'],
          [c as Pod, 'n1'],
        ],
      );
    },
    flagged: [],
  },
  {
    // Valid order: a starts (no app=b pod yet), b follows on n1, then c starts its tier=y group and d follows. Starting
    // c first (its group has the most waiting pods) would bind an app=b pod and strand a and b for good.
    name: 'a binding order exists only if one group starts before another whose starter it selects',
    build: () => {
      const a = affine('a', { app: 'b', tier: 'x' }, [term(zone, { app: 'b' })]);
      const b = affine('b', { app: 'b', tier: 'x' }, [term(hostname, { app: 'b' })]);
      const c = affine('c', { app: 'b', tier: 'y' }, [term(zone, { tier: 'y' })]);
      const d = affine('d', { app: 'a', tier: 'x' }, [term(zone, { tier: 'y' })]);
      return place(
        [node('n1', 'zone-a', []), node('n2', 'zone-b', [])],
        [
          [a, 'n1'],
          [b, 'n1'],
          [c, 'n2'],
          [d, 'n2'],
        ],
      );
    },
    flagged: [],
  },
  {
    name: 'pods with one term each keep the per-term rule: a pod matching the term in the zone suffices',
    build: () => {
      const p = affine('p', {}, [term(zone, { app: 'db' })]);
      return place([node('n1', 'zone-a', [db('d1')]), node('n2', 'zone-a', [])], [[p, 'n2']]);
    },
    flagged: [],
  },
];

describe('required pod affinity with several terms, judged as kube-scheduler does', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(affinityViolations(c.build())).toEqual(c.flagged);
  });

  it('self-affine pods with two terms on two nodes of one zone: whichever binds first, the other misses its hostname term', () => {
    const labels = { app: 'db', tier: 'data' };
    const terms = [term(zone, { app: 'db' }), term(hostname, { tier: 'data' })];
    const [a, b] = [affine('a', labels, terms), affine('b', labels, terms)];
    const flagged = affinityViolations(
      place(
        [node('n1', 'zone-a', []), node('n2', 'zone-a', [])],
        [
          [a, 'n1'],
          [b, 'n2'],
        ],
      ),
    );
    expect(flagged).toHaveLength(1);
    expect(['default/a', 'default/b']).toContain(flagged[0]);
  });
});
