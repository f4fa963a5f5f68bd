import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import { drainDeadline, DrainMarginMs, ReplacementWaits, type ReplacementWorld } from './replacement-wait.js';

const t0 = Date.UTC(2026, 0, 1, 12);
const warningEnds = t0 + 120_000;

function pod(name: string, o: { grace?: number; daemonSet?: boolean; critical?: boolean } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: o.daemonSet ? 'DaemonSet' : 'ReplicaSet', name: 'owner', uid: 'u' },
      ],
    },
    spec: {
      nodeName: 'old',
      containers: [{ name: 'app', image: 'app' }],
      ...(o.grace !== undefined ? { terminationGracePeriodSeconds: o.grace } : {}),
      ...(o.critical ? { priorityClassName: 'system-cluster-critical' } : {}),
    },
    status: { phase: 'Running' },
  };
}

function interrupted(endsAt = warningEnds): StoredNodeClaim {
  return {
    metadata: {
      name: 'old-claim',
      annotations: { 'tenon.sh/instance-termination-time': new Date(endsAt).toISOString() },
    },
    spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
  };
}

function claim(name: string, conditions: Record<string, 'True' | 'False' | 'Unknown'> = {}): StoredNodeClaim {
  const status = Object.entries(conditions).map(([type, s]) => ({
    type,
    status: s,
    lastTransitionTime: new Date(t0).toISOString(),
  }));
  return { ...interrupted(), metadata: { name }, status: { conditions: status } };
}

function node(name: string, o: { initialized?: boolean; deleting?: boolean } = {}): Node {
  return {
    metadata: {
      name,
      labels: o.initialized ? { 'karpenter.sh/initialized': 'true' } : {},
      ...(o.deleting ? { deletionTimestamp: new Date(t0).toISOString() } : {}),
    },
  };
}

/** A cluster state the test edits: where provisioning nominated each pod, and the NodeClaims and Nodes cached. */
function world(): ReplacementWorld & {
  nominations: Map<string, string>;
  claims: Map<string, StoredNodeClaim>;
  nodes: Map<string, Node>;
} {
  const nominations = new Map<string, string>();
  const claims = new Map<string, StoredNodeClaim>();
  const nodes = new Map<string, Node>();
  return {
    nominations,
    claims,
    nodes,
    nominationOf: (p) => nominations.get(p.metadata.name ?? ''),
    nodeClaim: (n) => claims.get(n),
    node: (n) => nodes.get(n),
    managed: () => true,
  };
}

describe('drainDeadline', () => {
  it('leaves each drain tier its longest grace, plus the margin, before the instance ends', () => {
    // Workload pods first (their longest grace is 45 s), then DaemonSet pods (20 s).
    const pods = [pod('a'), pod('b', { grace: 45 }), pod('ds', { daemonSet: true, grace: 20 })];
    expect(drainDeadline(warningEnds, pods)).toBe(warningEnds - 45_000 - 20_000 - DrainMarginMs);
  });

  it("counts Kubernetes' default 30 s grace for a pod that sets none", () => {
    expect(drainDeadline(warningEnds, [pod('a')])).toBe(warningEnds - 30_000 - DrainMarginMs);
  });
});

describe('ReplacementWaits', () => {
  it('drains at once a node no interruption stamped', () => {
    const out = new ReplacementWaits().check(
      { node: 'old', nodeClaim: claim('old-claim'), pods: [pod('a')], now: t0 },
      world(),
    );
    expect(out).toMatchObject({ wait: false, why: 'not-interrupted' });
  });

  it('waits while the replacement launches, and drains once it is initialized', () => {
    const w = world();
    const waits = new ReplacementWaits();
    const pods = [pod('a'), pod('b')];
    // Provisioning has not placed the pods yet.
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 }, w)).toMatchObject({
      wait: true,
      first: true,
    });
    w.nominations.set('a', 'nodeclaim/new');
    w.nominations.set('b', 'nodeclaim/new');
    w.claims.set('new', claim('new', { Launched: 'True' }));
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 + 10_000 }, w)).toMatchObject({
      wait: true,
      first: false,
    });
    // Registered but not yet initialized: the pods could not run there yet.
    w.claims.set('new', claim('new', { Launched: 'True', Registered: 'True' }));
    w.nodes.set('new-node', node('new-node'));
    w.nominations.set('a', 'node/new-node');
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 + 30_000 }, w).wait).toBe(true);
    w.claims.set('new', claim('new', { Launched: 'True', Registered: 'True', Initialized: 'True' }));
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 + 31_000 }, w).wait).toBe(true);
    w.nodes.set('new-node', node('new-node', { initialized: true }));
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 + 32_000 }, w)).toEqual({
      wait: false,
      why: 'replaced',
      first: true,
    });
    // Once draining, it keeps draining even if a pod's nomination moves to new capacity (a PDB held it back).
    w.nominations.set('b', 'nodeclaim/another');
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 + 33_000 }, w)).toEqual({
      wait: false,
      why: 'replaced',
      first: false,
    });
  });

  it('drains at once when the pods have initialized room on other nodes already', () => {
    const w = world();
    w.nodes.set('other', node('other', { initialized: true }));
    w.nominations.set('a', 'node/other');
    expect(
      new ReplacementWaits().check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 }, w),
    ).toMatchObject({
      wait: false,
      why: 'replaced',
    });
  });

  it('does not count room on a node that is itself being deleted', () => {
    const w = world();
    w.nodes.set('other', node('other', { initialized: true, deleting: true }));
    w.nominations.set('a', 'node/other');
    expect(
      new ReplacementWaits().check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 }, w).wait,
    ).toBe(true);
  });

  it('drains at the deadline when the replacement is slower than the notice allows', () => {
    const w = world();
    const waits = new ReplacementWaits();
    const pods = [pod('a')];
    w.nominations.set('a', 'nodeclaim/new');
    w.claims.set('new', claim('new', { Launched: 'True' }));
    const deadline = warningEnds - 30_000 - DrainMarginMs;
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: deadline - 1 }, w)).toMatchObject({
      wait: true,
      until: deadline,
    });
    expect(waits.check({ node: 'old', nodeClaim: interrupted(), pods, now: deadline }, w)).toMatchObject({
      wait: false,
      why: 'deadline',
    });
  });

  it('drains at once when the notice is already too short for the pods’ grace', () => {
    const late = interrupted(t0 + 30_000);
    expect(
      new ReplacementWaits().check({ node: 'old', nodeClaim: late, pods: [pod('a')], now: t0 }, world()),
    ).toMatchObject({
      wait: false,
      why: 'deadline',
    });
  });

  it('drains at once when the replacement fails to launch: deleted (insufficient capacity) or Launched=False', () => {
    const w = world();
    const gone = new ReplacementWaits();
    w.nominations.set('a', 'nodeclaim/new');
    w.claims.set('new', claim('new'));
    expect(gone.check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 }, w).wait).toBe(true);
    w.claims.delete('new');
    expect(gone.check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 + 1000 }, w)).toMatchObject({
      why: 'launch-failed',
    });

    const refused = new ReplacementWaits();
    w.claims.set('new', claim('new', { Launched: 'False' }));
    expect(refused.check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 }, w)).toMatchObject({
      why: 'launch-failed',
    });
  });

  it('keeps waiting for a nominated NodeClaim the cache has not delivered yet', () => {
    const w = world();
    w.nominations.set('a', 'nodeclaim/just-created');
    expect(
      new ReplacementWaits().check({ node: 'old', nodeClaim: interrupted(), pods: [pod('a')], now: t0 }, w).wait,
    ).toBe(true);
  });

  it('drains at once a node whose pods need no replacement (DaemonSet pods only)', () => {
    const pods = [pod('ds', { daemonSet: true })];
    expect(
      new ReplacementWaits().check({ node: 'old', nodeClaim: interrupted(), pods, now: t0 }, world()),
    ).toMatchObject({
      wait: false,
      why: 'nothing-to-move',
    });
  });
});
