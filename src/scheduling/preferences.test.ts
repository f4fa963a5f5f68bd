// Preference relaxation on pods whose traits are shared: the pods of one template share one traits object
// (pod-info.ts), so relaxing one pod must move that pod alone, and pods differing only in namespace or labels
// must not share traits at all.
import { describe, expect, it } from 'vitest';
import { checkPlacement } from './check/check.js';
import type { Pod } from './model.js';
import { newPodInfo } from './pod-info.js';
import { relax } from './preferences.js';
import { SolveCache } from './solve-cache.js';
import { makeNodePool, makePod, smallCatalog } from './testing/factories.js';
import { solve } from './solver/solve.js';

const zone = 'topology.kubernetes.io/zone';
const host = 'kubernetes.io/hostname';

/** Pods with one shared spec and labels object, as the informer hands the pods of one ReplicaSet. */
function siblings(template: Pod, names: string[], namespace = 'default'): Pod[] {
  return names.map((name) => ({
    metadata: { ...template.metadata, name, namespace, uid: `uid-${namespace}-${name}` },
    spec: template.spec,
  }));
}

describe('relaxation with shared traits', () => {
  it('relaxes one pod of a template and leaves its siblings as they were', () => {
    const template = makePod({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 10, preference: { matchExpressions: [{ key: zone, operator: 'In', values: ['test-zone-b'] }] } },
          ],
        },
      },
    });
    const cache = new SolveCache();
    const [a, b] = siblings(template, ['a', 'b']).map((pod, index) => newPodInfo(pod, { index, cache }));
    if (!a || !b) throw new Error('two pods expected');
    expect(a.traits).toBe(b.traits);
    expect(a.requirements.get(zone)?.has('test-zone-b')).toBe(true);
    expect(relax(a, { toleratePreferNoSchedule: false, cache })).toBe('removed preferred node affinity term');
    expect(a.requirements.get(zone)).toBeUndefined();
    expect(b.requirements.get(zone)?.has('test-zone-b')).toBe(true);
    expect(b.state.preferredNodeTerms).toHaveLength(1);
    // The sibling relaxes the same way when its turn comes.
    expect(relax(b, { toleratePreferNoSchedule: false, cache })).toBe('removed preferred node affinity term');
    expect(b.requirements.get(zone)).toBeUndefined();
    expect(b.traits).toBe(a.traits);
  });

  it("loosens in Karpenter's order, one step per call, PreferNoSchedule last and only when allowed", () => {
    const term = (values: string[]) => ({ matchExpressions: [{ key: zone, operator: 'In' as const, values }] });
    const podTerm = { topologyKey: host, labelSelector: { matchLabels: { app: 'web' } } };
    const pod = makePod({
      labels: { app: 'web' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [term(['test-zone-a']), term(['test-zone-b'])],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: term(['test-zone-c']) }],
        },
        podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: podTerm }] },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: podTerm }] },
      },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: zone,
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    });
    const steps = (allow: boolean): (string | undefined)[] => {
      const info = newPodInfo(pod, { index: 0 });
      return Array.from({ length: 8 }, () => relax(info, { toleratePreferNoSchedule: allow }));
    };
    const order = [
      'removed required node affinity term 0',
      'removed preferred pod affinity term',
      'removed preferred pod anti-affinity term',
      'removed preferred node affinity term',
      'removed ScheduleAnyway topology spread constraint',
    ];
    expect(steps(true)).toEqual([...order, 'tolerating PreferNoSchedule taints', undefined, undefined]);
    expect(steps(false)).toEqual([...order, undefined, undefined, undefined]);
    // The one pod relaxed twice over keeps its constraints: a new PodInfo starts from the spec again.
    const fresh = newPodInfo(pod, { index: 0 });
    expect(fresh.state.requiredTerms).toHaveLength(2);
    expect(fresh.tolerations).toEqual([]);
  });
});

describe('pods sharing a spec object across namespaces', () => {
  it('judges each pod in its own namespace (anti-affinity selects only its own namespace)', () => {
    const template = makePod({
      cpu: '100m',
      memory: '128Mi',
      labels: { app: 'cache' },
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: host, labelSelector: { matchLabels: { app: 'cache' } } },
          ],
        },
      },
    });
    const pods = [...siblings(template, ['c1', 'c2'], 'team-a'), ...siblings(template, ['c1', 'c2'], 'team-b')];
    const input = { pods, nodePools: [makeNodePool()], instanceTypes: smallCatalog() };
    const r = solve(input);
    expect(r.unplaced).toEqual([]);
    expect(checkPlacement(input, r)).toEqual([]);
    // Two per namespace must be apart; a team-a and a team-b pod may share: two nodes, not four.
    expect(r.newNodeClaims).toHaveLength(2);
    for (const c of r.newNodeClaims) expect(c.pods.map((p) => p.split('/')[0]).sort()).toEqual(['team-a', 'team-b']);
  });
});
