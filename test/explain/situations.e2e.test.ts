/**
 * More situations for `tenon explain`, each built in the playground from kubectl-style manifests: NodePool limits,
 * do-not-disrupt, PodDisruptionBudgets, disruption budgets, consolidateAfter, NodePool usage, a NodeClaim's step,
 * no NodePool, a missing EC2NodeClass, every offering out of capacity, a pod waiting for an in-flight NodeClaim.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  explainNode,
  explainNodeClaim,
  explainNodePool,
  explainPod,
  type Explanation,
} from '../../src/explain/index.js';
import { injectFault } from '../../src/sim/scenario/faults.js';
import { docs, nodeClass, nodePool, pod, situation, type Situation } from './harness.js';

function must(e: Explanation | undefined): Explanation {
  if (!e) throw new Error('nothing to explain');
  expect(e.explained, e.summary).toBe(true);
  return e;
}

describe('limits, disruption blockers, NodePool usage and NodeClaim steps', () => {
  let s: Situation;
  beforeAll(async () => {
    s = await situation(
      docs(
        nodeClass(),
        nodePool('capped', {
          limits: '{cpu: "4"}',
          requirements:
            '[{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}, {key: node.kubernetes.io/instance-type, operator: In, values: [c6i.xlarge]}]',
          disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 10m, budgets: [{nodes: "0"}]}',
        }),
        pod('first', { cpu: '3', labels: '{app: web}', annotations: '{karpenter.sh/do-not-disrupt: "true"}' }),
        `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
`,
      ),
      90_000,
    );
    await s.apply(pod('second', { cpu: '3' }));
    await s.advance(30_000);
  }, 180_000);
  afterAll(async () => {
    await s.pg.stop();
  });

  it('a pod over the NodePool limit: the limit, what is in use and what the smallest fitting type adds', async () => {
    const e = must(explainPod(await s.context(), 'default/second'));
    expect(e.cause).toMatchObject({ constraint: 'nodepool-limits', object: 'NodePool/capped' });
    expect(e.summary).toBe(
      'NodePool `capped` limit cpu 4 CPU reached: 4 CPU in use, and the smallest instance type that fits the pod (c6i.xlarge) adds 4 CPU',
    );
    expect(e.fix).toMatch(/raise spec.limits.cpu of NodePool `capped` to at least 8 CPU/);
  });

  it('a node with a do-not-disrupt pod, a PDB allowing 0, a budget of 0 and consolidateAfter still running', async () => {
    const ctx = await s.context();
    const node = ctx.snapshot.pods.find((p) => p.metadata.name === 'first')?.spec.nodeName ?? '';
    const e = must(explainNode(ctx, node));
    expect(e.state).toBe('NotDisrupted');
    expect(e.cause).toMatchObject({ constraint: 'do-not-disrupt', object: 'Pod/default/first' });
    expect(e.summary).toBe('pod default/first carries karpenter.sh/do-not-disrupt');
    expect(e.fix).toBe('remove the annotation from pod default/first, or wait for it to finish');
    expect(
      e.details.some((d) =>
        /^PodDisruptionBudget default\/web allows 0 disruptions \(1 healthy, 1 desired\) and covers first$/.test(d),
      ),
    ).toBe(true);
    expect(e.details.some((d) => /^NodePool `capped` budget "0" is active now and allows 0 of 1 nodes$/.test(d))).toBe(
      true,
    );
    expect(
      e.details.some((d) => /^consolidateAfter 10m not elapsed since the last pod event \(\d+m left\)$/.test(d)),
    ).toBe(true);
    expect(e.details.some((d) => /^expires in \d+h/.test(d))).toBe(true);
  });

  it('the NodePool: usage against its limits and what it would launch next', async () => {
    const e = must(explainNodePool(await s.context(), 'capped'));
    expect(e.summary).toBe('cpu 4 CPU of 4 CPU in use (100%)');
    expect(e.details).toContain('1 NodeClaims');
    expect(
      e.details.some((d) =>
        /^next launch for a small pod: c6i.xlarge in us-east-1[abc] \(on-demand, \$[\d.]+\/h\), 1 instance types allowed$/.test(
          d,
        ),
      ),
    ).toBe(true);
  });

  it('a NodeClaim that is Ready says so and what it runs on', async () => {
    const ctx = await s.context();
    const nc = ctx.snapshot.nodeClaims[0]?.metadata.name ?? '';
    const e = must(explainNodeClaim(ctx, nc));
    expect(e.state).toBe('Ready');
    expect(e.details.some((d) => d.startsWith('NodePool `capped`, instance type c6i.xlarge, node `'))).toBe(true);
  });
});

describe('cluster-wide causes', () => {
  it('no NodePool at all', async () => {
    const s = await situation(docs(nodeClass(), pod('web')), 15_000);
    try {
      const e = must(explainPod(await s.context(), 'default/web'));
      expect(e.cause).toMatchObject({ constraint: 'no-nodepool' });
      expect(e.fix).toMatch(/create a NodePool/);
    } finally {
      await s.pg.stop();
    }
  }, 120_000);

  it('a NodePool whose EC2NodeClass does not exist', async () => {
    const s = await situation(docs(nodePool('default', { nodeClass: 'missing' }), pod('web')), 15_000);
    try {
      const e = must(explainPod(await s.context(), 'default/web'));
      expect(e.cause).toMatchObject({ constraint: 'nodeclass', object: 'EC2NodeClass/missing' });
      expect(e.summary).toBe('NodePool `default` cannot launch: EC2NodeClass `missing` is not found on the cluster');
      expect(e.fix).toBe('fix EC2NodeClass `missing` (kubectl describe ec2nodeclass/missing)');
    } finally {
      await s.pg.stop();
    }
  }, 120_000);

  it('every offering out of capacity (ICE)', async () => {
    const s = await situation(
      docs(
        nodeClass(),
        nodePool('general', {
          requirements:
            '[{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}, {key: node.kubernetes.io/instance-type, operator: In, values: [c6i.large, c6i.xlarge]}]',
        }),
      ),
      5_000,
    );
    try {
      await injectFault(s.pg, { insufficientCapacity: {} });
      await s.apply(pod('web'));
      await s.advance(30_000);
      const e = must(explainPod(await s.context(), 'default/web'));
      expect(e.cause).toMatchObject({ constraint: 'offerings', object: 'NodePool/general' });
      expect(e.summary).toBe(
        "no instance type NodePool `general` allows has an available offering: every offering of node.kubernetes.io/instance-type In [c6i.large c6i.xlarge] is out of capacity or not offered in the EC2NodeClass's zones",
      );
      expect(e.fix).toMatch(/tried again after 3 minutes/);
    } finally {
      await s.pg.stop();
    }
  }, 120_000);

  it('a pod waiting for the NodeClaim launched for it', async () => {
    const s = await situation(docs(nodeClass(), nodePool('general'), pod('web')), 12_000);
    try {
      const e = must(explainPod(await s.context(), 'default/web'));
      expect(e.state).toBe('WaitingForNodeClaim');
      expect(e.summary).toMatch(
        /^waiting for NodeClaim `general-[a-z0-9]+` \(NodePool `general`\), (launching|registering|initializing) for \d+ s, expected Ready in ~\d+ s$/,
      );
      expect(e.cause?.constraint).toBe('in-flight');
    } finally {
      await s.pg.stop();
    }
  }, 120_000);
});
