/** Wires the real AWS provider to the simulated EC2, the way the playground does, for tests. */
import type { EC2NodeClass } from '../../src/api/index.js';
import { FakeClock } from '../../src/clock/index.js';
import type { NodeClaim, NodePool } from '../../src/cloudprovider/index.js';
import { AwsCloudProvider, NodeClassResolver } from '../../src/providers/aws/index.js';
import { generateUserData } from '../../src/providers/aws/bootstrap/index.js';
import { SimEc2, type SimEc2Options } from '../../src/sim/ec2/index.js';

export const cluster = 'demo';

/** A world: a clock, a simulated account, the provider on it, and the EC2NodeClasses it reads. */
export interface World {
  clock: FakeClock;
  sim: SimEc2;
  provider: AwsCloudProvider;
  resolver: NodeClassResolver;
  nodeClasses: Map<string, EC2NodeClass>;
  /** Resolves a class (as the EC2NodeClass controller would) and stores it with its status. */
  apply: (nc: EC2NodeClass) => Promise<EC2NodeClass>;
}

export function world(options: Partial<SimEc2Options> & { reservedCapacity?: boolean } = {}): World {
  const clock = new FakeClock();
  const { reservedCapacity, ...simOptions } = options;
  const gate = reservedCapacity === undefined ? {} : { reservedCapacity };
  const sim = new SimEc2({ seed: 7, clock, clusterName: cluster, ...simOptions });
  const nodeClasses = new Map<string, EC2NodeClass>();
  const provider = new AwsCloudProvider({
    port: sim,
    clock,
    cluster: { name: cluster, endpoint: 'https://demo.eks.example', caBundle: 'Y2E=' },
    kubernetesVersion: '1.32',
    getNodeClass: (name) => nodeClasses.get(name),
    userDataGenerator: generateUserData,
    ...gate,
  });
  // As the wiring does: the resolver syncs the reservation counts the provider offers and launches by.
  const resolver = new NodeClassResolver({
    port: sim,
    clock,
    clusterName: cluster,
    kubernetesVersion: '1.32',
    capacityReservations: provider.capacityReservations,
    ...gate,
  });
  const apply = async (nc: EC2NodeClass): Promise<EC2NodeClass> => {
    const r = await resolver.resolve(nc);
    const stored = {
      ...nc,
      metadata: { ...nc.metadata, annotations: { ...nc.metadata?.annotations, ...r.annotations } },
      status: r.status,
    };
    nodeClasses.set(nc.metadata?.name ?? '', stored);
    return stored;
  };
  return { clock, sim, provider, resolver, nodeClasses, apply };
}

/** The EC2NodeClass the getting-started guide shows: discovery-tagged subnets and groups, al2023@latest, a role. */
export function nodeClass(name = 'default', spec: Partial<NonNullable<EC2NodeClass['spec']>> = {}): EC2NodeClass {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name, generation: 1 },
    spec: {
      role: `KarpenterNodeRole-${cluster}`,
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster } }],
      ...spec,
    },
  };
}

let seq = 0;

/** A NodeClaim of NodePool `default` with these requirements and requests. */
export function nodeClaim(
  requirements: NodeClaim['spec']['requirements'] = [],
  requests: Record<string, string> = {},
  nodeClassName = 'default',
): NodeClaim {
  seq++;
  return {
    metadata: { name: `default-${String(seq).padStart(5, '0')}`, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: nodeClassName },
      requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] }, ...requirements],
      resources: { requests },
      taints: [],
      startupTaints: [],
    },
  };
}

/** A NodePool using the class. */
export function nodePool(nodeClassName = 'default'): NodePool {
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
