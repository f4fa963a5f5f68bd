/**
 * `tenon explain pod` on situations built in the playground from kubectl-style manifests: each asserts the state,
 * the cause (constraint, object, the numbers in the message) and the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainPod, type Explanation } from '../../src/explain/index.js';
import { docs, nodeClass, nodePool, pod, situation, type Situation } from './harness.js';

interface Case {
  pod: string;
  state?: string;
  constraint?: string;
  object?: string;
  message: RegExp;
  fix?: RegExp;
}

async function explained(s: Situation, key: string): Promise<Explanation> {
  const e = explainPod(await s.context(), key);
  if (!e) throw new Error(`no pod ${key}`);
  return e;
}

function check(e: Explanation, c: Case): void {
  expect(e.explained, e.summary).toBe(true);
  if (c.state) expect(e.state, e.summary).toBe(c.state);
  if (c.constraint) expect(e.cause?.constraint, e.summary).toBe(c.constraint);
  if (c.object) expect(e.cause?.object, e.summary).toBe(c.object);
  expect(e.summary).toMatch(c.message);
  if (c.fix) expect(e.fix ?? '').toMatch(c.fix);
}

describe('explain pod: constraint families against two NodePools', () => {
  let s: Situation;
  const pools = docs(
    nodeClass(),
    nodePool('general', { limits: '{cpu: "1000"}' }),
    nodePool('gpu', {
      requirements: '[{key: karpenter.k8s.aws/instance-category, operator: In, values: [g]}]',
      taints: '[{key: nvidia.com/gpu, value: "true", effect: NoSchedule}]',
    }),
  );
  const pods = docs(
    pod('too-big', { cpu: '500', memory: '20Gi' }),
    pod('wants-gpu', { spec: 'nodeSelector: {karpenter.k8s.aws/instance-category: g}' }),
    pod('zone-d', { spec: 'nodeSelector: {topology.kubernetes.io/zone: us-east-1d}' }),
    pod('wants-spot', { spec: 'nodeSelector: {karpenter.sh/capacity-type: spot}' }),
    pod('wants-p5', { spec: 'nodeSelector: {node.kubernetes.io/instance-type: p5.48xlarge}' }),
    pod('needs-db', {
      spec: 'affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}]}}',
    }),
    pod('runs', { cpu: '500m' }),
  );
  beforeAll(async () => {
    s = await situation(docs(pools, pods), 60_000);
  }, 120_000);
  afterAll(async () => {
    await s.pg.stop();
  });

  const cases: Case[] = [
    {
      pod: 'too-big',
      constraint: 'resources',
      object: 'NodePool/general',
      message:
        /^needs 500 CPU and 20Gi; the largest instance type NodePool `general` allows \(\S+\) has \d+(\.\d+)? CPU allocatable$/,
      fix: /request at most \d+(\.\d+)? CPU per pod, or allow larger instance types/,
    },
    {
      pod: 'wants-gpu',
      constraint: 'taints',
      object: 'NodePool/gpu',
      message: /NodePool `gpu` taints nvidia.com\/gpu=true:NoSchedule; the pod does not tolerate it/,
      fix: /add a toleration for nvidia.com\/gpu=true:NoSchedule/,
    },
    {
      pod: 'zone-d',
      constraint: 'zone',
      object: 'EC2NodeClass/default',
      message:
        /zone us-east-1d is not offered by any subnet of EC2NodeClass `default` \(its subnets are in us-east-1a, us-east-1b, us-east-1c\)/,
      fix: /add a subnet in us-east-1d/,
    },
    {
      pod: 'wants-spot',
      constraint: 'requirements',
      object: 'NodePool/general',
      message:
        /NodePool `general` requires karpenter.sh\/capacity-type In \[on-demand\]; the pod requires karpenter.sh\/capacity-type In \[spot\]/,
      fix: /nodeSelector or node affinity on karpenter.sh\/capacity-type/,
    },
    {
      pod: 'wants-p5',
      constraint: 'requirements',
      object: 'NodePool/general',
      message:
        /none of the \d+ instance types NodePool `general` allows satisfies node.kubernetes.io\/instance-type In \[p5.48xlarge\]/,
      fix: /^change the pod's requirement node.kubernetes.io\/instance-type In \[p5.48xlarge\], or widen NodePool `general`'s instance type requirements$/,
    },
    {
      pod: 'needs-db',
      constraint: 'pod-affinity',
      object: 'Pod/default/needs-db',
      message: /pod affinity on kubernetes.io\/hostname: no pod matches/,
      fix: /run a pod the affinity term selects first/,
    },
    {
      pod: 'runs',
      state: 'Running',
      message: /^Running on node `[^`]+` \(NodeClaim `general-[a-z0-9]+`, NodePool `general`, [a-z0-9.]+\)$/,
    },
  ];
  for (const c of cases) {
    it(`${c.pod}: ${c.constraint ?? c.state ?? ''}`, async () => {
      check(await explained(s, `default/${c.pod}`), c);
    });
  }

  it('every NodePool gets a detail line, the closest one first in the summary', async () => {
    const e = await explained(s, 'default/wants-gpu');
    expect(
      e.details.some((d) => d.startsWith('NodePool `general` requires karpenter.k8s.aws/instance-category In [c m r]')),
    ).toBe(true);
    expect(e.details.some((d) => d.startsWith('NodePool `gpu` taints'))).toBe(true);
  });
});

describe('explain pod: a NodePool whose EC2NodeClass is not Ready', () => {
  let s: Situation;
  beforeAll(async () => {
    s = await situation(
      docs(nodeClass('nosubnets', 'team: nobody'), nodePool('default', { nodeClass: 'nosubnets' }), pod('web')),
      30_000,
    );
  }, 120_000);
  afterAll(async () => {
    await s.pg.stop();
  });

  it('names the EC2NodeClass and why it is not Ready, not the limits', async () => {
    const e = await explained(s, 'default/web');
    check(e, {
      pod: 'web',
      constraint: 'nodeclass',
      object: 'EC2NodeClass/nosubnets',
      message: /NodePool `default` cannot launch: EC2NodeClass `nosubnets` is not Ready: .*subnet/i,
      fix: /fix EC2NodeClass `nosubnets`/,
    });
    expect(e.summary).not.toMatch(/limits/);
  });

  it('sets NodeClassReady and Ready False on the NodePool with the NodeClass reason', async () => {
    const np = (await s.context()).snapshot.nodePools.find((p) => p.metadata.name === 'default');
    const cond = (type: string): { status?: string; reason?: string; message?: string } | undefined =>
      np?.status?.conditions?.find((c) => c.type === type);
    expect(cond('NodeClassReady')).toMatchObject({ status: 'False' });
    expect(cond('NodeClassReady')?.message).toMatch(/EC2NodeClass nosubnets is not Ready/);
    expect(cond('Ready')).toMatchObject({ status: 'False', reason: cond('NodeClassReady')?.reason });
  });

  it('tells the pod once, with the real cause, in a FailedScheduling event', async () => {
    await s.advance(60_000);
    const events = (await s.context()).snapshot.events.filter(
      (e) =>
        e.reason === 'FailedScheduling' &&
        e.involvedObject?.name === 'web' &&
        e.message?.startsWith('Failed to schedule pod'),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.message).toMatch(/EC2NodeClass `nosubnets` is not Ready/);
    expect(events[0]?.message).not.toMatch(/remaining|exceed/);
  });
});

describe('explain pod: the NodePool a pod selects comes first', () => {
  let s: Situation;
  beforeAll(async () => {
    s = await situation(
      docs(
        nodeClass('nosubnets', 'team: nobody'),
        nodePool('picked', { nodeClass: 'nosubnets' }),
        nodePool('aaa-other', { nodeClass: 'missing' }),
        pod('picky', { spec: 'nodeSelector: {karpenter.sh/nodepool: picked}' }),
      ),
      30_000,
    );
  }, 120_000);
  afterAll(async () => {
    await s.pg.stop();
  });

  it('names the selected NodePool that cannot launch, not another one that cannot either', async () => {
    const e = await explained(s, 'default/picky');
    check(e, {
      pod: 'picky',
      constraint: 'nodeclass',
      object: 'EC2NodeClass/nosubnets',
      message: /^NodePool `picked` cannot launch: EC2NodeClass `nosubnets` is not Ready/,
      fix: /fix EC2NodeClass `nosubnets`/,
    });
    expect(
      e.details.some((d) => d.startsWith('NodePool `aaa-other` requires karpenter.sh/nodepool In [aaa-other]')),
    ).toBe(true);
  });
});
