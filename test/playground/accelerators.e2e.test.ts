/**
 * GPU and Inferentia NodePools as their users write them (instance families, a NoSchedule taint on the
 * accelerator resource) and pods requesting `nvidia.com/gpu` / `aws.amazon.com/neuron`. A node's device plugin
 * advertises the resource a while after the node is Ready; until then the NodeClaim is not initialized and
 * counts as the capacity its pods wait for: Tenon launches nothing more for them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resources, type Pod } from '../../src/kube/index.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';

const nodeClass = `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: KarpenterNodeRole-playground
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
`;

const gpuPool = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g5, g6]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
      taints: [{key: nvidia.com/gpu, effect: NoSchedule}]
  limits: {cpu: "1000"}
  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 5m}
`;

const inferentiaPool = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: inferentia}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [inf2]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
      taints: [{key: aws.amazon.com/neuron, effect: NoSchedule}]
  limits: {cpu: "1000"}
`;

function workload(name: string, replicas: number, resource: string): string {
  return `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      tolerations: [{key: ${resource}, operator: Exists, effect: NoSchedule}]
      containers:
        - name: app
          image: app
          resources: {requests: {cpu: "1", memory: 2Gi, ${resource}: "1"}, limits: {${resource}: "1"}}
`;
}

let pg: Playground | undefined;
afterEach(async () => {
  await pg?.stop();
  pg = undefined;
});

/** Every instance the simulated EC2 launched since the call. */
function launches(p: Playground): Set<string> {
  const seen = new Set<string>();
  p.ec2.account.instances.subscribe(() => {
    for (const i of p.ec2.account.instances.all()) seen.add(i.instanceId);
  });
  return seen;
}

async function start(
  o: Parameters<typeof startPlayground>[0],
  manifests: string,
): Promise<{ p: Playground; launched: Set<string> }> {
  const p = await startPlayground({ defaults: false, ...o });
  pg = p;
  const launched = launches(p);
  await p.clock.busy(applyObjects(p.client, p.discovery, parseManifests(manifests)));
  return { p, launched };
}

async function runningPods(p: Playground, app: string): Promise<number> {
  const pods = await p.clock.busy(
    p.client.list<Pod>(Resources.pods, { namespace: 'default', labelSelector: `app=${app}` }),
  );
  return pods.items.filter((x) => x.status?.phase === 'Running' && !x.metadata.deletionTimestamp).length;
}

describe('accelerated workloads launch once, not for ever', () => {
  it('2 Inferentia pods whose device plugin has not started get at most one NodeClaim each, which waits on the resource', async () => {
    const { p, launched } = await start(
      { kubelet: { devicePlugin: { min: 3_600_000, max: 3_600_000 } } },
      [nodeClass, inferentiaPool, workload('infer', 2, 'aws.amazon.com/neuron')].join('\n---\n'),
    );
    await p.clock.advance(20 * 60_000);
    expect(launched.size).toBeGreaterThan(0);
    expect(launched.size).toBeLessThanOrEqual(2);
    const claims = (await p.clock.busy(p.client.list<StoredNodeClaim>(Resources.nodeClaims))).items;
    const initialized = claims.map((c) => c.status?.conditions?.find((x) => x.type === 'Initialized'));
    expect(initialized.map((c) => c?.reason)).toContain('ResourceNotRegistered');
    expect(initialized.find((c) => c?.reason === 'ResourceNotRegistered')?.message).toMatch(/aws\.amazon\.com\/neuron/);
  }, 180_000);

  it('4 GPU pods run once the device plugins advertise nvidia.com/gpu, on at most one NodeClaim each', async () => {
    const { p, launched } = await start(
      {},
      [nodeClass, gpuPool, workload('train', 4, 'nvidia.com/gpu')].join('\n---\n'),
    );
    for (let m = 0; m < 15 && (await runningPods(p, 'train')) < 4; m++) await p.clock.advance(60_000);
    expect(await runningPods(p, 'train')).toBe(4);
    await p.clock.advance(10 * 60_000);
    expect(await runningPods(p, 'train')).toBe(4);
    expect(launched.size).toBeGreaterThan(0);
    expect(launched.size).toBeLessThanOrEqual(4);
  }, 180_000);
});
