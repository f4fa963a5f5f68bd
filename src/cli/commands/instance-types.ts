/**
 * `tenon instance-types`: the instance types the AWS provider offers for an EC2NodeClass and NodePool
 * (defaults when none is given), computed by the real provider against the simulated EC2 account and the
 * shipped catalog: zones, capacity types, prices, capacity and allocatable.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import YAML from 'yaml';
import type { EC2NodeClass } from '../../api/index.js';
import { FakeClock } from '../../clock/index.js';
import type { InstanceType, NodePool } from '../../cloudprovider/index.js';
import { generateUserData } from '../../providers/aws/bootstrap/index.js';
import { AwsCloudProvider, NodeClassResolver } from '../../providers/aws/index.js';
import { Requirements } from '../../scheduling/index.js';
import { SimEc2 } from '../../sim/ec2/index.js';

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
    spec: { template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: nodeClassName }, requirements: [] } } },
  };
}

/** The types the provider offers for the class and pool, narrowed to the pool's requirements, cheapest first. */
export async function listInstanceTypes(input: { nodeClass?: EC2NodeClass; nodePool?: NodePool; cluster?: string; kubernetesVersion?: string }): Promise<InstanceTypesResult> {
  const cluster = input.cluster ?? 'tenon';
  const kubernetesVersion = input.kubernetesVersion ?? '1.32';
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const sim = new SimEc2({ clock, clusterName: cluster });
  const nodeClass = input.nodeClass ?? defaultNodeClass(cluster);
  const name = nodeClass.metadata?.name ?? 'default';
  const resolver = new NodeClassResolver({ port: sim, clock, clusterName: cluster, kubernetesVersion });
  const resolution = await resolver.resolve(nodeClass);
  if (!resolution.ready) {
    const ready = resolution.status.conditions?.find((c) => c.type === 'Ready');
    return { ok: false, message: `EC2NodeClass ${name} is not ready in the simulated account (cluster ${cluster}): ${ready?.message ?? ''}` };
  }
  const resolved: EC2NodeClass = { ...nodeClass, status: resolution.status };
  const provider = new AwsCloudProvider({
    port: sim, clock, cluster: { name: cluster, endpoint: 'https://cluster.invalid' }, kubernetesVersion,
    getNodeClass: (n) => (n === name ? resolved : undefined), userDataGenerator: generateUserData,
  });
  const pool = input.nodePool ?? defaultNodePool(name);
  const poolReqs = Requirements.fromSelector(pool.spec.template.spec.requirements);
  const types = (await provider.getInstanceTypes({ ...pool, spec: { template: { ...pool.spec.template, spec: { ...pool.spec.template.spec, nodeClassRef: { ...pool.spec.template.spec.nodeClassRef, name } } } } }))
    .filter((t) => poolReqs.intersects(Requirements.fromSelector(t.requirements)) === undefined)
    .sort((a, b) => minPrice(a) - minPrice(b) || a.name.localeCompare(b.name));
  return { ok: true, types };
}

function minPrice(t: InstanceType, capacityType?: string): number {
  const prices = t.offerings.filter((o) => o.available && (capacityType === undefined || o.capacityType === capacityType)).map((o) => o.price);
  return prices.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...prices);
}

const price = (p: number): string => (Number.isFinite(p) ? p.toFixed(4) : '-');

/** The table the command prints, one line per type. */
export function formatTable(types: InstanceType[]): string[] {
  const header = ['NAME', 'ZONES', 'CAPACITY TYPES', 'ON-DEMAND $/H', 'SPOT $/H', 'CPU', 'MEMORY', 'PODS', 'ALLOC CPU', 'ALLOC MEMORY'];
  const rows = types.map((t) => [
    t.name,
    [...new Set(t.offerings.map((o) => o.zone))].sort().join(','),
    [...new Set(t.offerings.map((o) => o.capacityType))].sort().join(','),
    price(minPrice(t, 'on-demand')),
    price(minPrice(t, 'spot')),
    t.capacity.cpu ?? '', t.capacity.memory ?? '', t.capacity.pods ?? '', t.allocatable.cpu ?? '', t.allocatable.memory ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
}

function readManifest<T>(file: string | undefined): T | undefined {
  return file === undefined ? undefined : (YAML.parse(readFileSync(file, 'utf8')) as T);
}

/** Registers `tenon instance-types`. */
export function registerInstanceTypes(program: Command): void {
  program
    .command('instance-types')
    .description('list the instance types the AWS provider offers for an EC2NodeClass and NodePool (simulated account, shipped catalog)')
    .option('--nodeclass <file>', 'EC2NodeClass manifest (default: al2023@latest, discovery-tagged subnets and security groups)')
    .option('--nodepool <file>', 'NodePool manifest whose requirements narrow the list')
    .option('--cluster <name>', 'cluster name the simulated account tags its subnets and security groups with', 'tenon')
    .option('--json', 'print a JSON array of {name, capacity, allocatable} objects')
    .action(async (opts: { nodeclass?: string; nodepool?: string; cluster: string; json?: boolean }) => {
      const result = await listInstanceTypes({ nodeClass: readManifest(opts.nodeclass), nodePool: readManifest(opts.nodepool), cluster: opts.cluster });
      if (!result.ok) {
        process.stderr.write(`${result.message}\n`);
        process.exitCode = 1;
        return;
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(result.types.map((t) => ({ name: t.name, capacity: t.capacity, allocatable: t.allocatable })), null, 2)}\n`);
        return;
      }
      process.stdout.write(`${formatTable(result.types).join('\n')}\n`);
    });
}
