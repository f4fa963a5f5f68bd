/**
 * `tenon instance-types`: the instance types the AWS provider offers for an EC2NodeClass and NodePool
 * (defaults when none is given), computed by the real provider against the simulated EC2 account and the
 * shipped catalog: zones, capacity types, prices, capacity and allocatable.
 */
import type { Command } from 'commander';
import { Labels, type EC2NodeClass } from '../../api/index.js';
import { FakeClock } from '../../clock/index.js';
import type { InstanceType, NodePool } from '../../cloudprovider/index.js';
import { generateUserData } from '../../providers/aws/bootstrap/index.js';
import { AwsCloudProvider, NodeClassResolver } from '../../providers/aws/index.js';
import { Requirements } from '../../scheduling/index.js';
import { SimEc2 } from '../../sim/ec2/index.js';
import { kubernetesVersionProblem } from '../../sim/machines/kubernetes-version.js';
import { playgroundCluster, playgroundKubernetesVersion } from '../../sim/playground/cluster-identity.js';
import { readInstanceTypesInput } from './instance-types-input.js';

/** What the command lists, or why it cannot. */
export type InstanceTypesResult = { ok: true; types: InstanceType[] } | { ok: false; message: string };

function defaultNodeClass(cluster: string): EC2NodeClass {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      role: `KarpenterNodeRole-${cluster}`,
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster } }],
    },
  };
}

function defaultNodePool(nodeClassName: string): NodePool {
  return {
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: nodeClassName },
          requirements: [],
        },
      },
    },
  };
}

/** The types the provider offers for the class and pool, narrowed to the pool's requirements, cheapest first. */
export async function listInstanceTypes(input: {
  nodeClass?: EC2NodeClass;
  nodePool?: NodePool;
  cluster?: string;
  kubernetesVersion?: string;
}): Promise<InstanceTypesResult> {
  const cluster = input.cluster ?? playgroundCluster;
  const kubernetesVersion = input.kubernetesVersion ?? playgroundKubernetesVersion;
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const sim = new SimEc2({ clock, clusterName: cluster });
  const nodeClass = input.nodeClass ?? defaultNodeClass(cluster);
  const name = nodeClass.metadata?.name ?? 'default';
  const resolver = new NodeClassResolver({ port: sim, clock, clusterName: cluster, kubernetesVersion });
  const resolution = await resolver.resolve(nodeClass);
  if (!resolution.ready) {
    const ready = resolution.status.conditions?.find((c) => c.type === 'Ready');
    return {
      ok: false,
      message: `EC2NodeClass ${name} is not ready in the simulated account (cluster ${cluster}): ${ready?.message ?? ''}`,
    };
  }
  const resolved: EC2NodeClass = { ...nodeClass, status: resolution.status };
  const provider = new AwsCloudProvider({
    port: sim,
    clock,
    cluster: { name: cluster, endpoint: 'https://cluster.invalid' },
    kubernetesVersion,
    getNodeClass: (n) => (n === name ? resolved : undefined),
    userDataGenerator: generateUserData,
  });
  const pool = input.nodePool ?? defaultNodePool(name);
  const poolReqs = Requirements.fromSelector(pool.spec.template.spec.requirements);
  const types = (
    await provider.getInstanceTypes({
      ...pool,
      spec: {
        template: {
          ...pool.spec.template,
          spec: { ...pool.spec.template.spec, nodeClassRef: { ...pool.spec.template.spec.nodeClassRef, name } },
        },
      },
    })
  )
    .filter((t) => poolReqs.intersects(Requirements.fromSelector(t.requirements)) === undefined)
    .sort((a, b) => minPrice(a) - minPrice(b) || a.name.localeCompare(b.name));
  return { ok: true, types };
}

function minPrice(t: InstanceType, capacityType?: string): number {
  const prices = t.offerings
    .filter((o) => o.available && (capacityType === undefined || o.capacityType === capacityType))
    .map((o) => o.price);
  return prices.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...prices);
}

/** Accelerators of a type: `1 nvidia t4`, `16 neuron` or `-`. */
function gpus(t: InstanceType): string {
  const count = (key: string): number => Number(t.capacity[key] ?? 0);
  const gpu = count('nvidia.com/gpu') + count('amd.com/gpu');
  if (gpu > 0)
    return [gpu, t.labels[Labels.instanceGpuManufacturer], t.labels[Labels.instanceGpuName]].filter(Boolean).join(' ');
  const neuron = count('aws.amazon.com/neuron');
  return neuron > 0 ? `${neuron} neuron` : '-';
}

const price = (p: number): string => (Number.isFinite(p) ? p.toFixed(4) : '-');

/** The table the command prints, one line per type. */
export function formatTable(types: InstanceType[]): string[] {
  const header = [
    'NAME',
    'ARCH',
    'GPU',
    'ZONES',
    'CAPACITY TYPES',
    'ON-DEMAND $/H',
    'SPOT $/H',
    'CPU',
    'MEMORY',
    'PODS',
    'ALLOC CPU',
    'ALLOC MEMORY',
  ];
  const rows = types.map((t) => [
    t.name,
    t.labels[Labels.arch] ?? '',
    gpus(t),
    [...new Set(t.offerings.map((o) => o.zone))].sort().join(','),
    [...new Set(t.offerings.map((o) => o.capacityType))].sort().join(','),
    price(minPrice(t, 'on-demand')),
    price(minPrice(t, 'spot')),
    t.capacity.cpu ?? '',
    t.capacity.memory ?? '',
    t.capacity.pods ?? '',
    t.allocatable.cpu ?? '',
    t.allocatable.memory ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** Registers `tenon instance-types`. */
export function registerInstanceTypes(program: Command): void {
  program
    .command('instance-types')
    .description(
      'list the instance types the AWS provider offers for an EC2NodeClass and NodePool (simulated account, shipped catalog)',
    )
    .argument(
      '[files...]',
      'manifests with a NodePool and/or its EC2NodeClass (multi-document YAML; ${CLUSTER_NAME} is replaced by --cluster)',
    )
    .option(
      '--nodeclass <file>',
      'EC2NodeClass manifest (default: al2023@latest, discovery-tagged subnets and security groups)',
    )
    .option('--nodepool <file>', 'NodePool manifest whose requirements narrow the list')
    .option('--name <nodepool>', 'which NodePool, when the files hold several')
    .option(
      '--cluster <name>',
      'cluster name the simulated account tags its subnets and security groups with (as `tenon serve`)',
      playgroundCluster,
    )
    .option(
      '--kubernetes-version <minor>',
      'Kubernetes version AMI aliases resolve for (as `tenon serve`)',
      playgroundKubernetesVersion,
    )
    .option('--json', 'print a JSON array of {name, arch, capacity, allocatable} objects')
    .action(async (files: string[], opts: InstanceTypesFlags) => {
      exitQuietlyWhenOutputCloses();
      const input = readInstanceTypesInput({
        files: [...files, ...[opts.nodepool, opts.nodeclass].filter((f): f is string => f !== undefined)],
        cluster: opts.cluster,
        poolName: opts.name,
      });
      const version = kubernetesVersionProblem(opts.kubernetesVersion);
      if (!input.ok || version) {
        process.stderr.write(
          `tenon instance-types: ${input.ok ? `--kubernetes-version: ${version ?? ''}` : input.message}\n`,
        );
        process.exitCode = 2;
        return;
      }
      const result = await listInstanceTypes({
        nodeClass: input.nodeClass,
        nodePool: input.nodePool,
        cluster: opts.cluster,
        kubernetesVersion: opts.kubernetesVersion,
      });
      if (!result.ok) {
        process.stderr.write(`${result.message}\n`);
        process.exitCode = 1;
        return;
      }
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify(
            result.types.map((t) => ({
              name: t.name,
              arch: t.labels[Labels.arch],
              capacity: t.capacity,
              allocatable: t.allocatable,
            })),
            null,
            2,
          )}\n`,
        );
        return;
      }
      process.stdout.write(`${formatTable(result.types).join('\n')}\n`);
    });
}

interface InstanceTypesFlags {
  nodeclass?: string;
  nodepool?: string;
  name?: string;
  cluster: string;
  kubernetesVersion: string;
  json?: boolean;
}

// `tenon instance-types | head` closes the pipe early: that ends the listing, it is not an error.
function exitQuietlyWhenOutputCloses(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
}
