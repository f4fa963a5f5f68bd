/**
 * Karpenter's scheduling benchmark, re-created (kubernetes-sigs/karpenter,
 * pkg/controllers/provisioning/scheduling/scheduling_benchmark_test.go and pkg/cloudprovider/fake/instancetype.go):
 *
 * - `fakeInstanceTypes(n)` is `fake.InstanceTypes(n)`: type i has i+1 vCPU, 2(i+1) GiB, 10(i+1) pods; kube-reserved
 *   100m CPU and 10Mi memory; arch amd64; os linux|windows|darwin; offerings spot in test-zone-1/2 and on-demand in
 *   test-zone-1/2/3, all at `PriceFromResources` = 0.1 per vCPU + 0.1 per 10^9 bytes of memory; labels `size`
 *   (large when > 4 vCPU and > 8Gi, else small), `special=optional` on large ones, `integer` = vCPU count.
 * - `makeDiversePods(n)` as of Karpenter v1.15: five equal shares of generic pods, zone and hostname topology spread
 *   (maxSkew 1, DoNotSchedule, selector `my-label` = a random value, independent of the pod's own random
 *   `my-label`), zone pod self-affinity (one random `my-affininity` [sic] value used as both the pod's label and its
 *   selector, since kubernetes-sigs/karpenter#1938) and hostname anti-affinity (all pods `app=nginx`, anti-affine to
 *   each other); the remainder generic. CPU requests are drawn from 100m, 250m, 500m, 1000m, 1500m and memory from
 *   100Mi, 256Mi, 512Mi, 1Gi, 2Gi, 4Gi; label values from a..g.
 * - `makePreferencePods(n)`: n identical pods (one CPU and memory draw), `app=nginx`, preferring zone test-zone-1
 *   (weight 1), preferring zone anti-affinity to each other (weight 10, unsatisfiable) and hostname anti-affinity
 *   (weight 1).
 * - The NodePool has limits (cpu 10,000,000, memory 10,000,000Gi) so limit accounting runs on every NodeClaim.
 *
 * Go's math/rand stream cannot be reproduced, so draws come from a seeded generator with the same distributions.
 */
import type { InstanceType, NodePool, Pod } from '../../src/scheduling/index.js';
import { Rng } from './random.js';

const zoneKey = 'topology.kubernetes.io/zone';
const hostnameKey = 'kubernetes.io/hostname';

/** `fake.PriceFromResources`: 0.1 per vCPU plus 0.1 per 10^9 bytes of memory. */
export function fakePrice(cpu: number, memBytes: number): number {
  return 0.1 * cpu + (0.1 * memBytes) / 1e9;
}

/** `fake.InstanceTypes(n)`. */
export function fakeInstanceTypes(n: number): InstanceType[] {
  const out: InstanceType[] = [];
  for (let i = 0; i < n; i++) {
    const cpu = i + 1;
    const memGi = 2 * cpu;
    const price = fakePrice(cpu, memGi * 2 ** 30);
    const large = cpu > 4 && memGi > 8;
    const offering = (zone: string, capacityType: 'spot' | 'on-demand'): InstanceType['offerings'][number] => ({
      zone,
      capacityType,
      price,
      available: true,
    });
    out.push({
      name: `fake-it-${i}`,
      labels: {
        'kubernetes.io/arch': 'amd64',
        size: large ? 'large' : 'small',
        integer: String(cpu),
        ...(large ? { special: 'optional' } : {}),
      },
      requirements: [{ key: 'kubernetes.io/os', operator: 'In', values: ['darwin', 'linux', 'windows'] }],
      capacity: { cpu: String(cpu), memory: `${memGi}Gi`, pods: String(10 * cpu) },
      overhead: { cpu: '100m', memory: '10Mi' },
      offerings: [
        offering('test-zone-1', 'spot'),
        offering('test-zone-2', 'spot'),
        offering('test-zone-1', 'on-demand'),
        offering('test-zone-2', 'on-demand'),
        offering('test-zone-3', 'on-demand'),
      ],
    });
  }
  return out;
}

/** The benchmark's `test.NodePool()`: no requirements, limits far above any benchmark fleet. */
export function benchmarkNodePool(): NodePool {
  return { name: 'default', template: {}, limits: { cpu: '10000000', memory: '10000000Gi' } };
}

type Kind = 'generic' | 'zone-spread' | 'hostname-spread' | 'zone-affinity' | 'hostname-anti-affinity';

class PodMaker {
  private n = 0;
  constructor(private readonly rng: Rng) {}

  private value(): string {
    return this.rng.pick(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  }

  private base(labels: Record<string, string>, spec: Partial<Pod['spec']>): Pod {
    const name = `diverse-${String(this.n++).padStart(6, '0')}`;
    const cpu = this.rng.pick(['100m', '250m', '500m', '1000m', '1500m']);
    const memory = this.rng.pick(['100Mi', '256Mi', '512Mi', '1024Mi', '2048Mi', '4096Mi']);
    return {
      metadata: { name, namespace: 'default', uid: `uid-${name}`, labels },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu, memory } } }], ...spec },
    };
  }

  make(kind: Kind): Pod {
    switch (kind) {
      case 'generic':
        return this.base({ 'my-label': this.value() }, {});
      case 'zone-spread':
      case 'hostname-spread': {
        const labels = { 'my-label': this.value() };
        const topologyKey = kind === 'zone-spread' ? zoneKey : hostnameKey;
        return this.base(labels, {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { 'my-label': this.value() } },
            },
          ],
        });
      }
      case 'zone-affinity': {
        const labels = { 'my-affininity': this.value() };
        const term = { labelSelector: { matchLabels: { ...labels } }, topologyKey: zoneKey };
        return this.base(labels, {
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
        });
      }
      case 'hostname-anti-affinity': {
        const labels = { app: 'nginx' };
        const term = { labelSelector: { matchLabels: { app: 'nginx' } }, topologyKey: hostnameKey };
        return this.base(labels, {
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
        });
      }
    }
  }
}

/** The five kinds of Karpenter's benchmark, in its order. */
export const diverseKinds: readonly Kind[] = [
  'generic',
  'zone-spread',
  'hostname-spread',
  'zone-affinity',
  'hostname-anti-affinity',
];

/** `makeDiversePods(count)`, with the kinds in `kinds`. */
export function makeDiversePods(count: number, opts: { seed: number; kinds?: readonly Kind[] }): Pod[] {
  const kinds = opts.kinds ?? diverseKinds;
  const maker = new PodMaker(new Rng(opts.seed));
  const share = Math.floor(count / kinds.length);
  const pods: Pod[] = [];
  for (const k of kinds) for (let i = 0; i < share; i++) pods.push(maker.make(k));
  while (pods.length < count) pods.push(maker.make('generic'));
  return pods;
}

/** `makePreferencePods(count)`: identical pods whose preferences can and cannot be met. */
export function makePreferencePods(count: number, opts: { seed: number }): Pod[] {
  const rng = new Rng(opts.seed);
  const cpu = rng.pick(['100m', '250m', '500m', '1000m', '1500m']);
  const memory = rng.pick(['100Mi', '256Mi', '512Mi', '1024Mi', '2048Mi', '4096Mi']);
  const selector = { matchLabels: { app: 'nginx' } };
  return Array.from({ length: count }, (_, i) => {
    const name = `preference-${String(i).padStart(6, '0')}`;
    return {
      metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'nginx' } },
      spec: {
        containers: [{ name: 'app', resources: { requests: { cpu, memory } } }],
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: { matchExpressions: [{ key: zoneKey, operator: 'In', values: ['test-zone-1'] }] },
              },
            ],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, podAffinityTerm: { labelSelector: selector, topologyKey: zoneKey } },
              { weight: 1, podAffinityTerm: { labelSelector: selector, topologyKey: hostnameKey } },
            ],
          },
        },
      },
    };
  });
}
