/**
 * The situations table of `tenon explain`: SCENARIOS.md S1-S5, topology spread, volume zones, node repair and each
 * thing that keeps a node (do-not-disrupt, PodDisruptionBudget, disruption budget, consolidateAfter). Each world is
 * built in the playground from kubectl-style manifests and run by the real controllers on simulated time; each row
 * asserts the state, the cause (constraint and object), the first line with its numbers, and the fix line.
 * More rows live in pods.e2e.test.ts and situations.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  explainNode,
  explainNodeClaim,
  explainNodePool,
  explainPod,
  type ExplainContext,
  type Explanation,
} from '../../src/explain/index.js';
import { Resources } from '../../src/kube/index.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import { docs, nodeClass, nodePool, pod, situation, type Situation } from './harness.js';

/** One row: what to explain in which snapshot, and what the explanation must say. */
interface Row {
  name: string;
  at: string;
  explain: (ctx: ExplainContext) => Explanation | undefined;
  state: string;
  constraint?: string;
  object?: string | RegExp;
  summary: RegExp;
  /** The fix line; null when there is nothing to fix. */
  fix: RegExp | null;
  details?: RegExp[];
}

const onDemand = '{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}';
const cmr = '{key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}';

function inZone(zone: string): string {
  return `[${onDemand}, ${cmr}, {key: topology.kubernetes.io/zone, operator: In, values: [${zone}]}]`;
}

function podOn(pool: string, name: string, extra: { labels?: string; spec?: string } = {}): string {
  return pod(name, {
    labels: extra.labels,
    spec: `nodeSelector: {karpenter.sh/nodepool: ${pool}}${extra.spec ? `, ${extra.spec}` : ''}`,
  });
}

function nodeOf(ctx: ExplainContext, podName: string): string {
  return ctx.snapshot.pods.find((p) => p.metadata.name === podName)?.spec.nodeName ?? `(no node for ${podName})`;
}

function claimOf(ctx: ExplainContext, pool: string): string {
  return (
    ctx.snapshot.nodeClaims.find((c) => c.metadata.labels?.['karpenter.sh/nodepool'] === pool)?.metadata.name ??
    `(no NodeClaim of ${pool})`
  );
}

function check(row: Row, e: Explanation | undefined): void {
  if (!e) throw new Error(`${row.name}: nothing to explain`);
  const text = `${e.summary}\nfix: ${e.fix ?? '(none)'}\n${e.details.join('\n')}`;
  expect(e.explained, text).toBe(true);
  expect(e.state, text).toBe(row.state);
  if (row.constraint) expect(e.cause?.constraint, text).toBe(row.constraint);
  if (row.object) expect(e.cause?.object ?? '', text).toMatch(row.object);
  expect(e.summary).toMatch(row.summary);
  if (row.fix === null) expect(e.fix, text).toBeUndefined();
  else expect(e.fix ?? '', text).toMatch(row.fix);
  for (const d of row.details ?? [])
    expect(
      e.details.some((x) => d.test(x)),
      `${text}\n(no detail ${d})`,
    ).toBe(true);
}

/** Runs each row against the snapshot its `at` names, taken by `build`. */
function table(
  title: string,
  build: () => Promise<{ s: Situation; snapshots: Map<string, ExplainContext> }>,
  rows: Row[],
): void {
  describe(title, () => {
    let world: { s: Situation; snapshots: Map<string, ExplainContext> } | undefined;
    beforeAll(async () => {
      world = await build();
    }, 240_000);
    afterAll(async () => {
      await world?.s.pg.stop();
    });
    for (const row of rows)
      it(row.name, () => {
        const ctx = world?.snapshots.get(row.at);
        if (!ctx) throw new Error(`no snapshot ${row.at}`);
        check(row, row.explain(ctx));
      });
  });
}

/** Advances in 1 s steps until `ready` holds on a fresh snapshot (at most `maxMs`), and returns that snapshot. */
async function until(s: Situation, ready: (ctx: ExplainContext) => boolean, maxMs = 120_000): Promise<ExplainContext> {
  for (let t = 0; t <= maxMs; t += 1_000) {
    const ctx = await s.context();
    if (ready(ctx)) return ctx;
    await s.pg.clock.advance(1_000);
  }
  throw new Error('the situation never came about');
}

table(
  'S1: the cloud provider taint lingers',
  async () => {
    const s = await situation(docs(nodeClass(), nodePool('general')), 1_000);
    await injectFault(s.pg, { ccmDelay: { min: '20m', max: '20m' } });
    await s.apply(pod('web'));
    await s.advance(7 * 60_000, 10_000);
    return { s, snapshots: new Map([['lingering', await s.context()]]) };
  },
  [
    {
      name: 'S1 NodeClaim: Initializing, waiting on the uninitialized taint, names the CCM and how long it lingered',
      at: 'lingering',
      explain: (ctx) => explainNodeClaim(ctx, claimOf(ctx, 'general')),
      state: 'Initializing',
      constraint: 'Initialized',
      object: /^NodeClaim\/general-/,
      summary:
        /^Initializing for \d+m, waiting on Initialized: known ephemeral taint node\.cloudprovider\.kubernetes\.io\/uninitialized=true:NoSchedule is still present on Node \S+; expected to be removed by the cloud controller manager; it has lingered \d+m\d*s? since registration \(alert after 5m\)$/,
      fix: /^check that the cloud controller manager runs and reaches the node: it removes node\.cloudprovider\.kubernetes\.io\/uninitialized=true:NoSchedule$/,
    },
    {
      name: 'S1 pod: waits for the node it fits on, with the NodeClaim step and the same fix',
      at: 'lingering',
      explain: (ctx) => explainPod(ctx, 'default/web'),
      state: 'WaitingForNode',
      constraint: 'in-flight',
      object: /^Node\//,
      summary: /^waiting for node `\S+` to become initialized; it has room for the pod$/,
      fix: /^check that the cloud controller manager runs/,
      details: [/^NodeClaim `general-\w+` step Initializing, waiting on Initialized \(known ephemeral taint/],
    },
  ],
);

const customNodeClass = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: custom}
spec:
  role: KarpenterNodeRole-playground
  amiFamily: Custom
  amiSelectorTerms: [{alias: al2@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  userData: |
    #!/bin/bash
    /etc/eks/bootstrap.sh playground --kubelet-extra-args='--register-with-taints="karpenter.sh/unregistered:NoExecute"'
`;

const ciliumNodeClass = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: cilium}
spec:
  role: KarpenterNodeRole-playground
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: playground}}]
  userData: |
    MIME-Version: 1.0
    Content-Type: multipart/mixed; boundary="BOUNDARY"

    --BOUNDARY
    Content-Type: application/node.eks.aws

    apiVersion: node.eks.aws/v1alpha1
    kind: NodeConfig
    spec:
      kubelet:
        flags:
          - --register-with-taints=node.cilium.io/agent-not-ready=true:NoExecute

    --BOUNDARY--
`;

table(
  'S2 and S3: userData that changes the registration taints',
  async () => {
    const s = await situation(
      docs(
        customNodeClass,
        nodePool('custom', { nodeClass: 'custom' }),
        ciliumNodeClass,
        nodePool('cilium', { nodeClass: 'cilium' }),
        podOn('custom', 's3-web'),
        podOn('cilium', 'tolerates', {
          spec: 'tolerations: [{key: node.cilium.io/agent-not-ready, operator: Exists}]',
        }),
      ),
      0,
    );
    const registering = await until(s, (ctx) => explainNodeClaim(ctx, claimOf(ctx, 'custom'))?.state === 'Registering');
    await s.advance(60_000);
    await s.apply(podOn('cilium', 'plain'));
    await s.advance(60_000);
    return {
      s,
      snapshots: new Map([
        ['registering', registering],
        ['later', await s.context()],
      ]),
    };
  },
  [
    {
      name: 'S3 NodeClaim waiting for registration: the one-word --kubelet-extra-args is named, with the lint fix',
      at: 'registering',
      explain: (ctx) => explainNodeClaim(ctx, claimOf(ctx, 'custom')),
      state: 'Registering',
      constraint: 'Registered',
      object: /^NodeClaim\/custom-/,
      summary:
        /^Registering for \d+ s, waiting on Registered: no Node with providerID aws:\/\/\/\S+ has registered yet$/,
      fix: /^Write it as two words: --kubelet-extra-args '--register-with-taints="karpenter\.sh\/unregistered:NoExecute"'$/,
      details: [
        /^EC2NodeClass `custom` userData: the bootstrap option `--kubelet-extra-args=…` was ignored \(one-word form\), so the kubelet may register without karpenter\.sh\/unregistered — see `tenon lint`$/,
        /^the registration timeout \(15m\) deletes it in 1[45]m if no Node registers$/,
      ],
    },
    {
      name: 'S3 pod waiting for that NodeClaim carries the same fix',
      at: 'registering',
      explain: (ctx) => explainPod(ctx, 'default/s3-web'),
      state: 'WaitingForNodeClaim',
      constraint: 'in-flight',
      object: /^NodeClaim\/custom-/,
      summary:
        /^waiting for NodeClaim `custom-\w+` \(NodePool `custom`\), registering for \d+ s, expected Ready in ~\d+ s$/,
      fix: /^Write it as two words: --kubelet-extra-args/,
    },
    {
      name: 'S3 NodeClaim after the node registered without karpenter.sh/unregistered',
      at: 'later',
      explain: (ctx) => explainNodeClaim(ctx, claimOf(ctx, 'custom')),
      state: 'Ready',
      constraint: 'registration-taint',
      object: 'EC2NodeClass/custom',
      summary:
        /^Ready for \d+ s; the kubelet registered without karpenter\.sh\/unregistered; the bootstrap option `--kubelet-extra-args=…` was ignored \(one-word form\) — see `tenon lint`$/,
      fix: /^Write it as two words: --kubelet-extra-args/,
    },
    {
      name: 'S2 pod: the node launched for it registered with the userData taint it does not tolerate',
      at: 'later',
      explain: (ctx) => explainPod(ctx, 'default/plain'),
      state: 'Pending',
      constraint: 'unexpected-taint',
      object: /^Node\//,
      summary:
        /^node `\S+` \(NodeClaim `cilium-\w+`, launched for this pod\) registered with node\.cilium\.io\/agent-not-ready=true:NoExecute, which the pod does not tolerate and the NodePool does not set; EC2NodeClass `cilium` userData adds it$/,
      fix: /^add a toleration for node\.cilium\.io\/agent-not-ready to the pod, or declare the taint in the NodePool \(spec\.template\.spec\.taints, or startupTaints if an agent removes it\) instead of EC2NodeClass `cilium` userData$/,
    },
    {
      name: 'S2 pod that tolerates the taint runs',
      at: 'later',
      explain: (ctx) => explainPod(ctx, 'default/tolerates'),
      state: 'Running',
      summary: /^Running on node `\S+` \(NodeClaim `cilium-\w+`, NodePool `cilium`, \S+\)$/,
      fix: null,
    },
  ],
);

const spread =
  'topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: s}}}]';

table(
  'S4 and topology: volumes in zones, spread over zones, the batch window',
  async () => {
    const s = await situation(
      docs(
        nodeClass(),
        nodePool('a', { requirements: inZone('us-east-1a') }),
        nodePool('b', { requirements: inZone('us-east-1b'), taints: '[{key: team, value: b, effect: NoSchedule}]' }),
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: in-c}
provisioner: ebs.csi.aws.com
volumeBindingMode: Immediate
allowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [us-east-1c]}]}]
`,
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {accessModes: [ReadWriteOnce], storageClassName: in-c, resources: {requests: {storage: 1Gi}}}
`,
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: nowhere, namespace: default}
spec: {accessModes: [ReadWriteOnce], storageClassName: no-such-class, resources: {requests: {storage: 1Gi}}}
`,
        pod('filler', {
          spec: 'tolerations: [{key: team, operator: Exists}], nodeSelector: {karpenter.sh/nodepool: b}',
        }),
        pod('spread-1', { labels: '{app: s}', spec: spread }),
      ),
      90_000,
    );
    await s.apply(
      docs(
        pod('db', { spec: 'volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]' }),
        pod('unbound', { spec: 'volumes: [{name: d, persistentVolumeClaim: {claimName: nowhere}}]' }),
        pod('spread-2', { labels: '{app: s}', spec: spread }),
      ),
    );
    await s.advance(30_000);
    const settled = await s.context();
    await s.apply(pod('new', { spec: 'nodeSelector: {karpenter.sh/nodepool: a}' }));
    return {
      s,
      snapshots: new Map([
        ['settled', settled],
        ['fresh', await s.context()],
      ]),
    };
  },
  [
    {
      name: 'S4: the volume is bound in a zone no NodePool launches in',
      at: 'settled',
      explain: (ctx) => explainPod(ctx, 'default/db'),
      state: 'Pending',
      constraint: 'volume-topology',
      object: /^PersistentVolume\/pvc-/,
      summary:
        /^volume pvc-[\w-]+ is bound in us-east-1c, where NodePool `a` does not launch \(it requires topology\.kubernetes\.io\/zone In \[us-east-1a\]\)$/,
      fix: /^allow us-east-1c in NodePool `a`'s topology\.kubernetes\.io\/zone requirement, or move the volume$/,
      details: [/^NodePool `b` taints team=b:NoSchedule; the pod does not tolerate it$/],
    },
    {
      name: 'S4: an Immediate claim that is not bound yet holds the pod',
      at: 'settled',
      explain: (ctx) => explainPod(ctx, 'default/unbound'),
      state: 'Pending',
      constraint: 'volume-binding',
      object: 'Pod/default/unbound',
      summary: /^persistentvolumeclaim default\/nowhere is unbound and its StorageClass binds Immediate/,
      fix: /^wait for the PersistentVolumeClaim to be bound, or check its StorageClass provisioner$/,
    },
    {
      name: 'topology spread: maxSkew 1 over zones would be exceeded in the only zone NodePool `a` allows',
      at: 'settled',
      // The second pod of the spread is the one left pending, whichever kube-scheduler bound first.
      explain: (ctx) =>
        explainPod(
          ctx,
          ctx.snapshot.pods.some((p) => p.metadata.name === 'spread-2' && !p.spec.nodeName)
            ? 'default/spread-2'
            : 'default/spread-1',
        ),
      state: 'Pending',
      constraint: 'topology-spread',
      object: 'NodePool/a',
      summary:
        /^NodePool `a`: topology spread \(maxSkew 1, min 0\) on topology\.kubernetes\.io\/zone cannot be satisfied here \(matching pods per domain: us-east-1a=1\)$/,
      fix: /^raise maxSkew, allow more zones in the NodePool, or set whenUnsatisfiable: ScheduleAnyway$/,
    },
    {
      name: 'a pod seen this instant waits for the batch window, naming what would launch',
      at: 'fresh',
      explain: (ctx) => explainPod(ctx, 'default/new'),
      state: 'Provisioning',
      constraint: 'batching',
      object: 'NodePool/a',
      summary:
        /^pending for \d+ s; NodePool `a` would launch \S+ in us-east-1a \(on-demand, \$[\d.]+\/h\) once the batch window closes$/,
      fix: null,
    },
  ],
);

const fiveApart = `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: default}
spec:
  replicas: 5
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: app}}}]}}
      containers: [{name: app, image: app, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`;

table(
  'S5: nodes whose kubelet stopped',
  async () => {
    const s = await situation(docs(nodeClass(), nodePool('general'), fiveApart), 90_000);
    await injectFault(s.pg, { kubeletStop: { count: 1 } });
    await s.advance(5 * 60_000, 10_000);
    const one = await s.context();
    await injectFault(s.pg, { kubeletStop: { count: 3 } });
    await s.advance(3 * 60_000, 30_000);
    return {
      s,
      snapshots: new Map([
        ['one', one],
        ['three', await s.context()],
      ]),
    };
  },
  [
    {
      name: 'S5: a node gone Unknown is repaired after the 30m toleration, and says when',
      at: 'one',
      explain: (ctx) =>
        explainNode(
          ctx,
          ctx.snapshot.nodes.find((n) =>
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown'),
          )?.metadata.name ?? '',
        ),
      state: 'Unhealthy',
      constraint: 'node-repair',
      object: /^Node\//,
      summary: /^Ready=Unknown \(NodeStatusUnknown\) for \dm; Tenon repairs it in 2\dm, after the 30m toleration$/,
      fix: /^nothing to do: the NodeClaim is replaced in 2\dm; to act sooner, check the kubelet on node `\S+` or delete its NodeClaim$/,
    },
    {
      name: 'S5: with 3 of the pool unhealthy, repair is blocked, with the counts',
      at: 'three',
      explain: (ctx) =>
        explainNode(
          ctx,
          ctx.snapshot.nodes.find((n) =>
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown'),
          )?.metadata.name ?? '',
        ),
      state: 'RepairBlocked',
      constraint: 'repair-threshold',
      object: 'NodePool/general',
      summary:
        /^repair blocked: 3 of \d+ nodes of NodePool `general` are unhealthy, more than 20% \(\d allowed\); this node is Ready=Unknown \(NodeStatusUnknown\) for \dm$/,
      fix: /^look for a network or control-plane incident first; Tenon repairs once at most \d of the \d+ nodes are unhealthy/,
    },
  ],
);

const keepers = docs(
  nodeClass(),
  nodePool('budget0', {
    disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m, budgets: [{nodes: "0"}]}',
  }),
  nodePool('guarded', {
    disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m, budgets: [{nodes: "1"}]}',
  }),
  nodePool('pinned', {
    disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 1m, budgets: [{nodes: "1"}]}',
  }),
  nodePool('slow', { disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 30m}' }),
  nodePool('never', { disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: Never}' }),
  podOn('budget0', 'b0'),
  podOn('guarded', 'guarded', { labels: '{app: guarded}' }),
  `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: guarded, namespace: default}
spec: {minAvailable: 1, selector: {matchLabels: {app: guarded}}}
`,
  podOn('pinned', 'pinned'),
  podOn('slow', 'slow'),
  podOn('never', 'never'),
);

table(
  'what keeps a node: do-not-disrupt, PDB, budget, consolidateAfter',
  async () => {
    const s = await situation(keepers, 60_000);
    const ctx = await s.context();
    await s.pg.client.patch(
      Resources.nodes,
      { name: nodeOf(ctx, 'pinned') },
      { metadata: { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } } },
    );
    await s.advance(10_000);
    return { s, snapshots: new Map([['kept', await s.context()]]) };
  },
  [
    {
      name: 'a node annotated do-not-disrupt',
      at: 'kept',
      explain: (ctx) => explainNode(ctx, nodeOf(ctx, 'pinned')),
      state: 'NotDisrupted',
      constraint: 'do-not-disrupt',
      object: /^Node\/\S+/,
      summary: /^node carries karpenter\.sh\/do-not-disrupt$/,
      fix: /^remove the karpenter\.sh\/do-not-disrupt annotation from the node$/,
    },
    {
      name: 'a node whose pod a PodDisruptionBudget allowing 0 covers',
      at: 'kept',
      explain: (ctx) => explainNode(ctx, nodeOf(ctx, 'guarded')),
      state: 'NotDisrupted',
      constraint: 'pdb',
      object: 'PodDisruptionBudget/default/guarded',
      summary:
        /^PodDisruptionBudget default\/guarded allows 0 disruptions \(1 healthy, 1 desired\) and covers guarded$/,
      fix: /^scale up the pods PodDisruptionBudget default\/guarded protects, or relax its minAvailable\/maxUnavailable$/,
    },
    {
      name: 'a node of a NodePool whose budget allows 0 nodes',
      at: 'kept',
      explain: (ctx) => explainNode(ctx, nodeOf(ctx, 'b0')),
      state: 'NotDisrupted',
      constraint: 'budget',
      object: 'NodePool/budget0',
      summary: /^NodePool `budget0` budget "0" is active now and allows 0 of 1 nodes$/,
      fix: /^wait for the budget window to end, or change spec\.disruption\.budgets of NodePool `budget0`$/,
    },
    {
      name: 'a node within consolidateAfter, with the time left',
      at: 'kept',
      explain: (ctx) => explainNode(ctx, nodeOf(ctx, 'slow')),
      state: 'NotDisrupted',
      constraint: 'consolidate-after',
      object: 'NodePool/slow',
      summary: /^consolidateAfter 30m not elapsed since the last pod event \(2\dm left\)$/,
      fix: /^wait, or lower consolidateAfter$/,
    },
    {
      name: 'a node of a NodePool that never consolidates',
      at: 'kept',
      explain: (ctx) => explainNode(ctx, nodeOf(ctx, 'never')),
      state: 'NotDisrupted',
      constraint: 'consolidate-after',
      object: 'NodePool/never',
      summary: /^NodePool `never` has consolidateAfter: Never$/,
      fix: /^set a consolidateAfter duration$/,
    },
  ],
);

table(
  'a NodePool that cannot launch',
  async () => {
    const s = await situation(docs(nodePool('orphan', { nodeClass: 'missing' }), pod('web')), 15_000);
    return { s, snapshots: new Map([['now', await s.context()]]) };
  },
  [
    {
      name: 'the NodePool itself: NotReady, naming the missing EC2NodeClass',
      at: 'now',
      explain: (ctx) => explainNodePool(ctx, 'orphan'),
      state: 'NotReady',
      constraint: 'nodeclass',
      object: 'EC2NodeClass/missing',
      summary: /^cannot launch: EC2NodeClass `missing` is not found on the cluster$/,
      fix: /^fix EC2NodeClass `missing`$/,
    },
  ],
);

table(
  'S4: a volume bound in a zone where no offering fits',
  async () => {
    const s = await situation(
      docs(
        nodeClass(),
        nodePool('general', {
          requirements: `[${onDemand}, {key: node.kubernetes.io/instance-type, operator: In, values: [c6i.large, c6i.xlarge]}]`,
        }),
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: in-c}
provisioner: ebs.csi.aws.com
volumeBindingMode: Immediate
allowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [us-east-1c]}]}]
`,
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {accessModes: [ReadWriteOnce], storageClassName: in-c, resources: {requests: {storage: 1Gi}}}
`,
      ),
      10_000,
    );
    await injectFault(s.pg, { insufficientCapacity: { zone: 'us-east-1c' } });
    await s.apply(pod('db', { spec: 'volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]' }));
    await s.advance(30_000);
    return { s, snapshots: new Map([['ice', await s.context()]]) };
  },
  [
    {
      name: "S4: the volume's zone has no offering left, and the message says the volume pins it there",
      at: 'ice',
      explain: (ctx) => explainPod(ctx, 'default/db'),
      state: 'Pending',
      constraint: 'offerings',
      object: 'NodePool/general',
      summary:
        /^volume pvc-[\w-]+ is bound in us-east-1c, where every offering NodePool `general` allows for the pod is out of capacity \(insufficient capacity on all 2 offerings of 2 instance types\)$/,
      fix: /^allow more instance types or capacity types in NodePool `general` \(the pod can only run in us-east-1c, with its volume\); offerings that ran out are tried again after 3 minutes$/,
    },
  ],
);
