/**
 * Situations for explanation tests: a playground (simulated EC2, kubelets, kube-scheduler, the real controllers)
 * given kubectl-style manifests, advanced on its simulated clock, then explained from a snapshot read through the
 * API server with the instance types the controllers see.
 */
import { cloudPool } from '../../src/controllers/cloud-objects.js';
import { SchedulingInputCache, toSchedulingInstanceType } from '../../src/controllers/provisioning/scheduling-input.js';
import { explainContext, readSnapshot, type ExplainContext } from '../../src/explain/index.js';
import type { InstanceType } from '../../src/scheduling/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';

/** The playground's EC2NodeClass (discovery-tagged subnets and security groups). */
export function nodeClass(name = 'default', subnetTags = 'karpenter.sh/discovery: playground'): string {
  return `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: ${name}}
spec:
  role: KarpenterNodeRole-playground
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {${subnetTags}}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
`;
}

/** A NodePool over EC2NodeClass `default`; `spec` lines are indented under spec.template.spec / spec by the caller. */
export function nodePool(
  name: string,
  o: {
    requirements?: string;
    taints?: string;
    limits?: string;
    disruption?: string;
    weight?: number;
    nodeClass?: string;
  } = {},
): string {
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${name}}
spec:
${o.weight !== undefined ? `  weight: ${o.weight}\n` : ''}  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: ${o.nodeClass ?? 'default'}}
      requirements: ${o.requirements ?? '[{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}, {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}]'}
${o.taints ? `      taints: ${o.taints}\n` : ''}${o.limits ? `  limits: ${o.limits}\n` : ''}  disruption: ${o.disruption ?? '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m}'}
`;
}

/** A bare pod (no owner) with requests and optional extra spec lines (YAML flow map entries). */
export function pod(
  name: string,
  o: { cpu?: string; memory?: string; spec?: string; labels?: string; annotations?: string } = {},
): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default${o.labels ? `, labels: ${o.labels}` : ''}${o.annotations ? `, annotations: ${o.annotations}` : ''}}
spec: {containers: [{name: c, image: app, resources: {requests: {cpu: "${o.cpu ?? '1'}", memory: ${o.memory ?? '1Gi'}}}}]${o.spec ? `, ${o.spec}` : ''}}
`;
}

/** Joins manifests into one multi-document text. */
export function docs(...parts: string[]): string {
  return parts.join('---\n');
}

/** A running situation. */
export interface Situation {
  pg: Playground;
  /** A fresh explanation context (snapshot read now). */
  context(): Promise<ExplainContext>;
  apply(manifests: string): Promise<void>;
  advance(ms: number, step?: number): Promise<void>;
}

/** The instance types each NodePool may launch, as the provisioning controller sees them. */
export async function providerTypes(
  pg: Playground,
  pools: ReadonlyArray<{ metadata: { name?: string } }>,
): Promise<Map<string, InstanceType[]>> {
  const out = new Map<string, InstanceType[]>();
  const cache = new SchedulingInputCache();
  for (const np of pools)
    out.set(
      np.metadata.name ?? '',
      (await pg.provider.getInstanceTypes(cloudPool(np as never))).map((it) => toSchedulingInstanceType(it, cache)),
    );
  return out;
}

/** Starts a playground without defaults, applies the manifests and advances `ms` of simulated time. */
export async function situation(manifests: string, ms = 30_000): Promise<Situation> {
  const pg = await startPlayground({ defaults: false });
  const s: Situation = {
    pg,
    async context() {
      const snapshot = await readSnapshot(pg.client);
      return explainContext(snapshot, {
        instanceTypes: await providerTypes(pg, snapshot.nodePools),
        now: pg.clock.now(),
      });
    },
    async apply(text) {
      await pg.clock.busy(applyObjects(pg.client, pg.discovery, parseManifests(text)));
    },
    async advance(total, step = 5_000) {
      for (let t = 0; t < total; t += step) await pg.clock.advance(Math.min(step, total - t));
    },
  };
  await s.apply(manifests);
  await s.advance(ms);
  return s;
}
