/**
 * Differential cases for PodDisruptionBudgets and the eviction subresource, with pods that are Running and
 * Ready (their status written through the status subresource: the real cluster has no kubelet here). Owners
 * are paused Deployments, which kube-controller-manager leaves alone (no ReplicaSet, no pods of its own), so
 * both servers hold the same pods and the disruption controller counts the Deployment's scale.
 */
import type { Case, Step } from './cases.js';

const pods = '/api/v1/namespaces/{ns}/pods';
const budgets = '/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets';

function deployment(replicas: number): Step {
  return {
    method: 'POST',
    path: '/apis/apps/v1/namespaces/{ns}/deployments',
    setup: true,
    capture: { uid: 'metadata.uid' },
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas,
        paused: true,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    },
  };
}

// A pod of the case's Deployment (or a bare one), then its status: Running, and Ready unless said otherwise.
function runningPod(name: string, opts: { owned: boolean; ready?: boolean; node?: string; app?: string }): Step[] {
  const owner = opts.owned
    ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '{uid}', controller: true }] }
    : {};
  return [
    {
      method: 'POST',
      path: pods,
      setup: true,
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app: opts.app ?? 'web' }, ...owner },
        spec: { containers: [{ name: 'c', image: 'nginx' }], ...(opts.node ? { nodeName: opts.node } : {}) },
      },
    },
    {
      method: 'PATCH',
      path: `${pods}/${name}/status`,
      contentType: 'application/merge-patch+json',
      setup: true,
      body: {
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
        },
      },
    },
  ];
}

function budget(spec: Record<string, unknown>): Step {
  return {
    method: 'POST',
    path: budgets,
    setup: true,
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    },
  };
}

function field(body: unknown, path: string): unknown {
  let cur: unknown = body;
  for (const p of path.split('.'))
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

// The budget's status once the disruption controller has seen its generation (and `also`, when given).
function computedStatus(also: (status: unknown) => boolean = () => true): Step {
  return {
    method: 'GET',
    path: `${budgets}/web`,
    only: 'status',
    until: (b) => field(b, 'status.observedGeneration') === field(b, 'metadata.generation') && also(field(b, 'status')),
  };
}

function evict(name: string): Step {
  return {
    method: 'POST',
    path: `${pods}/${name}/eviction`,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } },
  };
}

const drained = 'drain-{id}';

/**
 * What `kubectl drain` sends after listing a node's pods: a cordon, then one eviction per pod (it retries a 429
 * every 5 s until its timeout; the first answers decide what goes).
 */
function drain(podNames: string[]): Step[] {
  return [
    {
      method: 'PATCH',
      path: `/api/v1/nodes/${drained}`,
      contentType: 'application/strategic-merge-patch+json',
      setup: true,
      body: { spec: { unschedulable: true } },
    },
    ...podNames.map(evict),
  ];
}

/** The disruption cases, in order. */
export const disruptionCases: Case[] = [
  {
    name: 'eviction: maxUnavailable budget expects the Deployment scale, not the pods that run',
    steps: [
      deployment(4),
      ...runningPod('w1', { owned: true }),
      ...runningPod('w2', { owned: true }),
      budget({ maxUnavailable: 1 }),
      computedStatus(),
      evict('w1'),
    ],
  },
  {
    name: 'eviction: maxUnavailable budget over bare pods allows none',
    steps: [
      ...runningPod('b1', { owned: false }),
      ...runningPod('b2', { owned: false }),
      budget({ maxUnavailable: 1 }),
      computedStatus(),
      evict('b1'),
    ],
  },
  {
    name: 'eviction: a second eviction right after the first finds the budget spent',
    steps: [
      deployment(3),
      ...runningPod('e1', { owned: true }),
      ...runningPod('e2', { owned: true }),
      ...runningPod('e3', { owned: true }),
      budget({ maxUnavailable: 1 }),
      computedStatus(),
      evict('e1'),
      evict('e2'),
      computedStatus((s) => field(s, 'disruptedPods') === undefined && field(s, 'currentHealthy') === 2),
    ],
  },
  {
    name: 'kubectl drain: a budget lets one Deployment pod go, a bare pod outside every budget goes',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/nodes',
        setup: true,
        body: { apiVersion: 'v1', kind: 'Node', metadata: { name: drained } },
      },
      deployment(3),
      ...runningPod('d1', { owned: true, node: drained }),
      ...runningPod('d2', { owned: true, node: drained }),
      ...runningPod('d3', { owned: true, node: drained }),
      ...runningPod('lone', { owned: false, node: drained, app: 'lone' }),
      budget({ maxUnavailable: 1 }),
      computedStatus(),
      ...drain(['d1', 'd2', 'lone', 'd3']),
      computedStatus((s) => field(s, 'disruptedPods') === undefined && field(s, 'currentHealthy') === 2),
      { method: 'DELETE', path: `/api/v1/nodes/${drained}`, setup: true },
    ],
  },
  {
    name: 'eviction: an unready pod goes while the budget is met',
    steps: [
      ...runningPod('u1', { owned: false }),
      ...runningPod('u2', { owned: false, ready: false }),
      budget({ minAvailable: 1 }),
      computedStatus(),
      evict('u2'),
      evict('u1'),
    ],
  },
];
