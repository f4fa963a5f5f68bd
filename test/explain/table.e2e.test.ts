/**
 * The situations table of `tenon explain`: SCENARIOS.md S1-S4, topology spread, volume zones, the batch window and a
 * NodePool that cannot launch. Each world is built in the playground from kubectl-style manifests and run by the
 * real controllers on simulated time; each row asserts the state, the cause (constraint and object), the first line
 * with its numbers, and the fix line. Nodes (S5 repair, what keeps a node) are in nodes.e2e.test.ts; more rows live
 * in pods.e2e.test.ts and situations.e2e.test.ts.
 */
import { explainNodeClaim, explainNodePool, explainPod } from '../../src/explain/index.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import { docs, nodeClass, nodePool, pod, situation } from './harness.js';
import { claimOf, inZone, onDemand, podOn, table, until } from './table-harness.js';

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
        /^NodePool `a`: topology spread on topology\.kubernetes\.io\/zone \(maxSkew 1\) cannot be satisfied here: matching pods: us-east-1a has 1 \(the only domain this node may be in\); us-east-1[bc] has 0, the fewest; one more in us-east-1a would make the skew 2 > maxSkew 1$/,
      fix: /^raise maxSkew, let NodePool `a` launch in us-east-1[bc] \(it has the fewest matching pods\), or set whenUnsatisfiable: ScheduleAnyway$/,
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
