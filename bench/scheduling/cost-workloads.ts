/** The cost suite's workloads on the real EC2 catalog: each builds a full scheduling input for a pod count. */
import type { DaemonSet, ExistingNode, NodePool, Pod, SchedulingInput } from '../../src/scheduling/index.js';
import { ec2InstanceTypes, zones } from './ec2-catalog.js';
import { apiWorkloads } from './cost-workloads-api.js';
import { makeDiversePods } from './karpenter-workload.js';

const zoneKey = 'topology.kubernetes.io/zone';
const hostnameKey = 'kubernetes.io/hostname';

/** A workload: a default pod count and a builder. */
export interface CostWorkload {
  name: string;
  pods: number;
  build: (pods: number, seed: number) => SchedulingInput;
}

let counter = 0;
function pod(
  cpu: string,
  memory: string,
  spec: Partial<Pod['spec']> & { labels?: Record<string, string>; extra?: Record<string, string> } = {},
): Pod {
  const { labels, extra, ...rest } = spec;
  const name = `p-${String(counter++).padStart(6, '0')}`;
  return {
    metadata: { name, namespace: 'default', uid: name, labels: labels ?? {} },
    spec: { containers: [{ name: 'app', resources: { requests: { cpu, memory, ...extra } } }], ...rest },
  };
}

function many(n: number, make: () => Pod): Pod[] {
  return Array.from({ length: n }, make);
}

/** Karpenter's usual general-purpose NodePool: c/m/r, generation > 5, amd64, on-demand unless told. */
function pool(
  name: string,
  extra: {
    capacityTypes?: string[];
    arch?: string[];
    categories?: string[];
    weight?: number;
    limits?: Record<string, string>;
    more?: NonNullable<NodePool['template']['requirements']>;
    taints?: NodePool['template']['taints'];
  } = {},
): NodePool {
  return {
    name,
    weight: extra.weight,
    limits: extra.limits,
    template: {
      taints: extra.taints,
      requirements: [
        { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: extra.categories ?? ['c', 'm', 'r'] },
        { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] },
        { key: 'kubernetes.io/arch', operator: 'In', values: extra.arch ?? ['amd64'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: extra.capacityTypes ?? ['on-demand'] },
        ...(extra.more ?? []),
      ],
    },
  };
}

function input(
  pods: Pod[],
  seed: number,
  extra: Partial<SchedulingInput> & { zoneCount?: number } = {},
): SchedulingInput {
  const { zoneCount, ...rest } = extra;
  return {
    pods,
    nodePools: [pool('default')],
    instanceTypes: ec2InstanceTypes({ zoneCount: zoneCount ?? 3, seed }),
    seed,
    ...rest,
  };
}

function existingNodes(seed: number, count: number): ExistingNode[] {
  const type = ec2InstanceTypes({ zoneCount: 3, seed }).find((t) => t.name === 'm6i.2xlarge');
  const zs = zones(3);
  return Array.from({ length: count }, (_, i) => ({
    name: `existing-${i}`,
    labels: {
      ...(type?.labels ?? {}),
      [zoneKey]: zs[i % zs.length] ?? 'us-east-1a',
      [hostnameKey]: `existing-${i}`,
      'karpenter.sh/nodepool': 'default',
      'karpenter.sh/capacity-type': 'on-demand',
    },
    allocatable: type?.allocatable ?? { cpu: '7910m', memory: '29317Mi', pods: '58' },
    capacity: type?.capacity,
    pods: many(4, () => pod('1', '2Gi')),
  }));
}

const daemonSets: DaemonSet[] = ['logs', 'metrics', 'cni', 'security'].map((name) => ({
  name,
  namespace: 'kube-system',
  template: {
    spec: {
      containers: [{ name, resources: { requests: { cpu: '250m', memory: '512Mi' } } }],
      tolerations: [{ operator: 'Exists' }],
    },
  },
}));

const antiTerm = { labelSelector: { matchLabels: { app: 'anti' } }, topologyKey: hostnameKey };

/** Every cost workload, in report order. */
export const costWorkloads: CostWorkload[] = [
  {
    name: 'uniform-small',
    pods: 400,
    build: (n, s) =>
      input(
        many(n, () => pod('250m', '512Mi')),
        s,
      ),
  },
  {
    name: 'uniform-large',
    pods: 60,
    build: (n, s) =>
      input(
        many(n, () => pod('6', '24Gi')),
        s,
      ),
  },
  {
    name: 'memory-heavy',
    pods: 200,
    build: (n, s) =>
      input(
        many(n, () => pod('500m', '6Gi')),
        s,
      ),
  },
  {
    name: 'cpu-heavy',
    pods: 200,
    build: (n, s) =>
      input(
        many(n, () => pod('2', '1Gi')),
        s,
      ),
  },
  { name: 'diverse', pods: 300, build: (n, s) => input(makeDiversePods(n, { seed: s }), s) },
  {
    // Karpenter's example NodePool limit: far above this fleet, but held at each planned NodeClaim's largest option.
    name: 'loose-limit',
    pods: 300,
    build: (n, s) =>
      input(makeDiversePods(n, { seed: s }), s, { nodePools: [pool('default', { limits: { cpu: '1000' } })] }),
  },
  {
    name: 'gpu',
    pods: 16,
    build: (n, s) => {
      const gpuPool = pool('gpu', {
        categories: ['g', 'p'],
        taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
        more: [{ key: 'karpenter.k8s.aws/instance-gpu-manufacturer', operator: 'In', values: ['nvidia'] }],
      });
      const pods = many(n, () =>
        pod('4', '16Gi', {
          extra: { 'nvidia.com/gpu': '1' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
        }),
      );
      return input(pods, s, { nodePools: [pool('default'), gpuPool] });
    },
  },
  {
    name: 'zone-spread',
    pods: 180,
    build: (n, s) =>
      input(
        many(n, () =>
          pod('1', '2Gi', {
            labels: { app: 'web' },
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: zoneKey,
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: 'web' } },
              },
            ],
          }),
        ),
        s,
        { zoneCount: 6 },
      ),
  },
  {
    name: 'hostname-anti-affinity',
    pods: 150,
    build: (n, s) => {
      const anti = many(Math.ceil(n / 5), () =>
        pod('1', '2Gi', {
          labels: { app: 'anti' },
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [antiTerm] } },
        }),
      );
      return input([...anti, ...many(n - anti.length, () => pod('500m', '1Gi'))], s);
    },
  },
  {
    name: 'arch-family',
    pods: 200,
    build: (n, s) => {
      const arm = many(Math.floor(n / 2), () => pod('1', '2Gi', { nodeSelector: { 'kubernetes.io/arch': 'arm64' } }));
      const fam = {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'karpenter.k8s.aws/instance-family', operator: 'In' as const, values: ['c7i', 'm7i'] },
              ],
            },
          ],
        },
      };
      const x86 = many(n - arm.length, () => pod('1', '3Gi', { affinity: { nodeAffinity: fam } }));
      return input([...arm, ...x86], s, { nodePools: [pool('default', { arch: ['amd64', 'arm64'] })] });
    },
  },
  {
    name: 'minvalues',
    pods: 200,
    build: (n, s) =>
      input(
        many(n, () => pod('1', '2Gi')),
        s,
        {
          nodePools: [
            pool('default', { more: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'Exists', minValues: 3 }] }),
          ],
        },
      ),
  },
  {
    name: 'spot-on-demand',
    pods: 200,
    build: (n, s) => {
      const od = many(Math.floor(n / 4), () =>
        pod('1', '4Gi', { nodeSelector: { 'karpenter.sh/capacity-type': 'on-demand' } }),
      );
      return input([...od, ...many(n - od.length, () => pod('1', '4Gi'))], s, {
        nodePools: [pool('default', { capacityTypes: ['spot', 'on-demand'] })],
      });
    },
  },
  {
    name: 'daemonset-overhead',
    pods: 200,
    build: (n, s) =>
      input(
        many(n, () => pod('500m', '1Gi')),
        s,
        { daemonSets },
      ),
  },
  {
    name: 'nodepool-limit',
    pods: 200,
    build: (n, s) =>
      input(
        many(n, () => pod('1', '2Gi')),
        s,
        { nodePools: [pool('spot', { capacityTypes: ['spot'], weight: 10, limits: { cpu: '64' } }), pool('default')] },
      ),
  },
  {
    name: 'existing-nodes',
    pods: 150,
    build: (n, s) =>
      input(
        many(n, () => pod('500m', '1Gi')),
        s,
        { nodes: existingNodes(s, 8) },
      ),
  },
  // NodeOverlay and CapacityBuffer workloads (cost-workloads-api.ts).
  ...apiWorkloads({ pod: (cpu, memory, extra) => pod(cpu, memory, { extra }), many, input: (p, s) => input(p, s) }),
];
