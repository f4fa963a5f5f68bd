/**
 * The nodes of the situations table: S5 (a node whose kubelet stopped: when it is repaired, what blocks or holds
 * the repair back) and what keeps a node from being disrupted (do-not-disrupt, PodDisruptionBudget, disruption
 * budget, consolidateAfter). Built in the playground and run by the real controllers on simulated time.
 */
import { explainNode, explainNodeClaim, type ExplainContext } from '../../src/explain/index.js';
import { Resources } from '../../src/kube/index.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import { docs, nodeClass, nodePool, situation } from './harness.js';
import { nodeOf, podOn, table } from './table-harness.js';

/** The node whose Ready condition went Unknown (its kubelet stopped). */
function unknownNode(ctx: ExplainContext): string {
  return (
    ctx.snapshot.nodes.find((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown'))
      ?.metadata.name ?? '(no node is Unknown)'
  );
}

/** The NodeClaim of that node. */
function unknownClaim(ctx: ExplainContext): string {
  const node = ctx.snapshot.nodes.find((n) => n.metadata.name === unknownNode(ctx));
  return (node ? ctx.index.claimOf(node)?.metadata.name : undefined) ?? '(no NodeClaim)';
}

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
      explain: (ctx) => explainNode(ctx, unknownNode(ctx)),
      state: 'Unhealthy',
      constraint: 'node-repair',
      object: /^Node\//,
      summary: /^Ready=Unknown \(NodeStatusUnknown\) for \dm; Tenon repairs it in 2\dm, after the 30m toleration$/,
      fix: /^nothing to do: the NodeClaim is replaced in 2\dm; to act sooner, check the kubelet on node `\S+` or delete its NodeClaim$/,
    },
    {
      name: 'S5: with 3 of the pool unhealthy, repair is blocked, with the counts',
      at: 'three',
      explain: (ctx) => explainNode(ctx, unknownNode(ctx)),
      state: 'RepairBlocked',
      constraint: 'repair-threshold',
      object: 'NodePool/general',
      summary:
        /^repair blocked: 3 of \d+ nodes of NodePool `general` are unhealthy, more than 20% \(\d allowed\); this node is Ready=Unknown \(NodeStatusUnknown\) for \dm$/,
      fix: /^look for a network or control-plane incident first; Tenon repairs once at most \d of the \d+ nodes are unhealthy/,
    },
  ],
);

table(
  'S5: repair held back by the NodePool disruption budget for Unhealthy',
  async () => {
    // consolidateAfter Never: the lost node's pods are evicted after 5m, and an empty node would be consolidated.
    const s = await situation(
      docs(
        nodeClass(),
        nodePool('general', {
          disruption:
            '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: Never, budgets: [{nodes: "0", reasons: [Unhealthy]}]}',
        }),
        fiveApart,
      ),
      90_000,
    );
    await injectFault(s.pg, { kubeletStop: { count: 1 } });
    await s.advance(5 * 60_000, 10_000);
    const early = await s.context();
    await s.advance(30 * 60_000, 60_000);
    return {
      s,
      snapshots: new Map([
        ['early', early],
        ['waiting', await s.context()],
      ]),
    };
  },
  [
    {
      name: 'S5 before the toleration ends: repairs it in 2Xm, if the budget allows it then',
      at: 'early',
      explain: (ctx) => explainNode(ctx, unknownNode(ctx)),
      state: 'Unhealthy',
      constraint: 'node-repair',
      summary:
        /^Ready=Unknown \(NodeStatusUnknown\) for \dm; Tenon repairs it in 2\dm, after the 30m toleration, if NodePool `general`'s disruption budget "0" for Unhealthy allows it then \(it allows none now\)$/,
      fix: /^nothing to do: the NodeClaim is replaced in 2\dm/,
    },
    {
      // 6 nodes: the five, and one launched for the pod evicted from the lost node.
      name: 'S5 node: the repair waits for the budget "0" for Unhealthy, with the counts',
      at: 'waiting',
      explain: (ctx) => explainNode(ctx, unknownNode(ctx)),
      state: 'RepairWaiting',
      constraint: 'budget',
      object: 'NodePool/general',
      summary:
        /^repair waits for NodePool `general`'s disruption budget "0" for Unhealthy: it allows 0 of 6 nodes at a time, none being repaired; this node is Ready=Unknown \(NodeStatusUnknown\) for 3\dm; Tenon repairs it only once the budget changes$/,
      fix: /^let repairs through: change disruption budget "0" for Unhealthy in spec\.disruption\.budgets of NodePool `general` \(it allows none\), or delete the NodeClaim to replace the node now$/,
    },
    {
      name: 'S5 NodeClaim: the same wait, with its lifecycle step as a detail',
      at: 'waiting',
      explain: (ctx) => explainNodeClaim(ctx, unknownClaim(ctx)),
      state: 'RepairWaiting',
      constraint: 'budget',
      object: 'NodePool/general',
      summary: /^repair waits for NodePool `general`'s disruption budget "0" for Unhealthy: it allows 0 of 6 nodes/,
      fix: /^let repairs through: change disruption budget "0" for Unhealthy/,
      details: [/^step Ready for \d+m/],
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
