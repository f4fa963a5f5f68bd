/**
 * The differential cases: real-world shapes (Karpenter's documented examples, a Deployment as `kubectl create
 * deployment` sends it, PDBs, drains) and the requests the real server rejects. `{ns}` in a path or body is
 * the case's own namespace; `{id}` a suffix that keeps cluster-scoped names apart.
 */
import type { Req } from './endpoint.js';

/**
 * A request of a case; `setup` ones prepare state and are not compared. `capture` keeps values of the answer
 * (name -> dotted path) for later steps' `{name}`, per server; `until` repeats the request until the answer
 * satisfies it (a controller catching up); `only` compares one top-level field of the answer; `events` compares
 * the watch events of the answer (type and object name, or the error code and reason); `sameAs` compares only
 * whether values of the answer (dotted path -> captured name) equal values captured earlier on the same server.
 */
export type Step = Req & {
  setup?: boolean;
  label?: string;
  capture?: Record<string, string>;
  until?: (body: unknown) => boolean;
  only?: string;
  events?: boolean;
  sameAs?: Record<string, string>;
};

/** One differential case. */
export interface Case {
  name: string;
  steps: Step[];
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
    },
    strategy: {},
  },
  status: {},
};

const pod = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'db' } },
  spec: {
    containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
    ...extra,
  },
});

const nodePool = (
  name: string,
  disruption: Record<string, unknown> = {},
  template: Record<string, unknown> = {},
): Record<string, unknown> => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
        ...template,
      },
    },
    limits: { cpu: 1000 },
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1m', ...disruption },
  },
});

const ec2NodeClass = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'diff-{id}' },
  spec: {
    role: 'KarpenterNodeRole-test',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test' } }],
  },
};

const pods = '/api/v1/namespaces/{ns}/pods';
const nodePools = '/apis/karpenter.sh/v1/nodepools';
const configMaps = '/api/v1/namespaces/{ns}/configmaps';

/** Every case, in order. */
export const cases: Case[] = [
  {
    name: 'Deployment as kubectl create sends it: stored defaults',
    steps: [{ method: 'POST', path: '/apis/apps/v1/namespaces/{ns}/deployments', body: deployment }],
  },
  {
    name: 'plain ReplicaSet create',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/{ns}/replicasets',
        body: { ...deployment, kind: 'ReplicaSet', spec: { ...deployment.spec, strategy: undefined } },
      },
    ],
  },
  {
    name: 'bare Pod: defaults, ServiceAccount admission, default tolerations, qosClass',
    steps: [{ method: 'POST', path: pods, body: pod('db') }],
  },
  {
    name: 'PodDisruptionBudget: stored defaults',
    steps: [
      {
        method: 'POST',
        path: '/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets',
        body: {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'db' },
          spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'db' } } },
        },
      },
    ],
  },
  {
    name: 'Karpenter getting-started NodePool: stored defaults',
    steps: [{ method: 'POST', path: nodePools, body: nodePool('diff-{id}') }],
  },
  {
    name: 'Karpenter EC2NodeClass example: stored defaults',
    steps: [{ method: 'POST', path: '/apis/karpenter.k8s.aws/v1/ec2nodeclasses', body: ec2NodeClass }],
  },
  {
    name: 'NodePool consolidateAfter 1mxyz is rejected',
    steps: [{ method: 'POST', path: nodePools, body: nodePool('diff-{id}', { consolidateAfter: '1mxyz' }) }],
  },
  {
    name: 'NodePool expireAfter garbageNever is rejected',
    steps: [{ method: 'POST', path: nodePools, body: nodePool('diff-{id}', {}, { expireAfter: 'garbageNever' }) }],
  },
  {
    name: 'NodePool with an unknown consolidationPolicy is rejected',
    steps: [{ method: 'POST', path: nodePools, body: nodePool('diff-{id}', { consolidationPolicy: 'Sometimes' }) }],
  },
  {
    name: 'NodePool nodeClassRef.group change',
    steps: [
      { method: 'POST', path: nodePools, body: nodePool('diff-{id}'), setup: true },
      {
        method: 'PATCH',
        path: `${nodePools}/diff-{id}`,
        contentType: 'application/merge-patch+json',
        body: { spec: { template: { spec: { nodeClassRef: { group: 'example.com' } } } } },
      },
    ],
  },
  {
    name: 'negative resource quantity is rejected',
    steps: [
      {
        method: 'POST',
        path: pods,
        body: {
          ...pod('neg'),
          spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '-1' } } }] },
        },
      },
    ],
  },
  {
    name: 'invalid label key is rejected',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad-label', labels: { 'bad key!': 'x' } } },
      },
    ],
  },
  {
    name: 'label value over 63 characters is rejected',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'long-label', labels: { k: 'v'.repeat(64) } } },
      },
    ],
  },
  {
    name: 'annotations over 256 KiB in total are rejected',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'big-annotations', annotations: { a: 'x'.repeat(262_145) } },
        },
      },
    ],
  },
  {
    name: 'a body whose kind does not match the URL is rejected',
    steps: [
      { method: 'POST', path: pods, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wrong-kind' } } },
    ],
  },
  {
    name: 'a body whose apiVersion does not match the URL is rejected',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/{ns}/deployments',
        body: { ...deployment, apiVersion: 'apps/v1beta1' },
      },
    ],
  },
  {
    name: 'a wrong value type in a built-in kind is rejected',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/{ns}/deployments',
        body: { ...deployment, spec: { ...deployment.spec, replicas: 'three' } },
      },
    ],
  },
  {
    name: 'an unknown fieldValidation value is rejected',
    steps: [
      {
        method: 'POST',
        path: `${configMaps}?fieldValidation=Sometimes`,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fv' } },
      },
    ],
  },
  {
    name: 'duplicate keys under fieldValidation=Strict are rejected',
    steps: [
      {
        method: 'POST',
        path: `${configMaps}?fieldValidation=Strict`,
        body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}',
      },
    ],
  },
  {
    name: 'an unknown field under fieldValidation=Strict is rejected',
    steps: [
      {
        method: 'POST',
        path: `${configMaps}?fieldValidation=Strict`,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unknown' }, spec: { x: 1 } },
      },
    ],
  },
  {
    name: 'a text/plain body is refused',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        contentType: 'text/plain',
        body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"plain"}}',
      },
    ],
  },
  {
    name: 'a body over 3 MiB is refused',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'huge' },
          data: { a: 'x'.repeat(3 * 1024 * 1024 + 10) },
        },
      },
    ],
  },
  {
    name: 'JSON nested past the decoder depth is refused',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${'['.repeat(12_000)}${']'.repeat(12_000)}}`,
      },
    ],
  },
  {
    name: 'update with a stale resourceVersion conflicts',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cas' }, data: { a: '1' } },
        setup: true,
      },
      {
        method: 'PUT',
        path: `${configMaps}/cas`,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cas', resourceVersion: '1' },
          data: { a: '2' },
        },
      },
    ],
  },
  {
    name: 'create of an existing name',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } },
        setup: true,
      },
      { method: 'POST', path: configMaps, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } } },
    ],
  },
  { name: 'get of a missing object', steps: [{ method: 'GET', path: `${configMaps}/missing` }] },
  {
    name: 'server-side apply: managedFields and a removed field',
    steps: [
      {
        method: 'PATCH',
        path: `${configMaps}/ssa?fieldManager=diff`,
        contentType: 'application/apply-patch+yaml',
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'ssa', labels: { a: '1', b: '2' } },
          data: { x: '1', y: '2' },
        },
      },
      {
        method: 'PATCH',
        path: `${configMaps}/ssa?fieldManager=diff`,
        contentType: 'application/apply-patch+yaml',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', labels: { a: '1' } }, data: { x: '1' } },
      },
    ],
  },
  {
    // A PodTemplate: no controller of the real cluster writes to it between the two requests.
    name: 'strategic merge patch of a container list (merge key name)',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/{ns}/podtemplates',
        body: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'tpl' }, template: deployment.spec.template },
        setup: true,
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/{ns}/podtemplates/tpl',
        contentType: 'application/strategic-merge-patch+json',
        body: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      },
    ],
  },
  {
    name: 'eviction of a pod whose budget allows none',
    steps: [
      { method: 'POST', path: pods, body: pod('guarded'), setup: true },
      {
        method: 'POST',
        path: '/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets',
        body: {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'guard' },
          spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'db' } } },
        },
        setup: true,
      },
      {
        method: 'POST',
        path: `${pods}/guarded/eviction`,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded' } },
      },
    ],
  },
  {
    name: 'eviction of a pod without a budget',
    steps: [
      { method: 'POST', path: pods, body: pod('free'), setup: true },
      {
        method: 'POST',
        path: `${pods}/free/eviction`,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'free' } },
      },
    ],
  },
  {
    name: 'NodePool printer columns (Table)',
    steps: [{ method: 'GET', path: nodePools, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }],
  },
  {
    name: 'Pod printer columns (Table)',
    steps: [{ method: 'GET', path: pods, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }],
  },
  {
    name: 'watch from a malformed resourceVersion',
    steps: [{ method: 'GET', path: `${configMaps}?watch=true&resourceVersion=abc&timeoutSeconds=1` }],
  },
  {
    name: 'list with an invalid label selector',
    steps: [{ method: 'GET', path: `${configMaps}?labelSelector=a%20in%20(` }],
  },
  {
    name: 'list with an unsupported field selector',
    steps: [{ method: 'GET', path: `${configMaps}?fieldSelector=data.a%3D1` }],
  },
];
