/**
 * What the benchmarks that run `tenon controller --cloud-provider fake` as a child process share (bench idle, bench
 * burst): the binary, the child with the chart's defaults and its captured output, and the manifests of one
 * fake-cloud NodePool with a Deployment to provision.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject, ResourceType } from '../src/kube/index.js';

/** bin/tenon.js from the build (dist/bench) or from the sources (bench). */
export const tenonBin =
  ['../../bin/tenon.js', '../bin/tenon.js']
    .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))
    .find((f) => existsSync(f)) ?? 'bin/tenon.js';

/** NodeClaims, listed as plain objects (no typed client needed to count them). */
export const nodeClaimsResource: ResourceType<KubeObject> = {
  group: 'karpenter.sh',
  version: 'v1',
  kind: 'NodeClaim',
  plural: 'nodeclaims',
  namespaced: false,
};

/** A running `tenon controller` child. */
export interface FakeController {
  child: ChildProcess;
  /** The last `keepChars` characters of its stdout and stderr. */
  output: () => string;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop: () => Promise<void>;
}

/** How to start the child. */
export interface FakeControllerOptions {
  kubeconfig: string;
  clusterName: string;
  metricsPort?: number;
  nodeLeases?: boolean;
  cpuProfDir?: string;
  keepChars: number;
}

/** Starts `tenon controller --cloud-provider fake` with the chart's defaults (leader election on, info logs). */
export function startFakeController(o: FakeControllerOptions): FakeController {
  const child = spawn(
    process.execPath,
    [
      ...(o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', o.cpuProfDir] : []),
      tenonBin,
      'controller',
      '--cloud-provider',
      'fake',
      '--kubeconfig',
      o.kubeconfig,
    ],
    {
      env: {
        ...process.env,
        METRICS_PORT: String(o.metricsPort ?? 0),
        HEALTH_PROBE_PORT: '0',
        LEADER_ELECTION_NAMESPACE: 'default',
        LOG_LEVEL: 'info',
        CLUSTER_NAME: o.clusterName,
        FAKE_CLOUD_NODE_LEASES: String(o.nodeLeases ?? false),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const keep = (d: Buffer): void => {
    out = (out + d.toString()).slice(-o.keepChars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** What to provision: one EC2NodeClass and on-demand NodePool named `name`, and a Deployment of `replicas` pods. */
export interface FakeWorkload {
  name: string;
  /** The NodePool's instance requirement, as one flow-YAML requirement. */
  requirement: string;
  /** The NodePool's spec.disruption, as flow YAML. */
  disruption: string;
  replicas: number;
  cpu: string;
}

/** The manifests of a FakeWorkload, for applyObjects. */
export function fakeWorkloadManifests(w: FakeWorkload): string {
  return `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: ${w.name}}
spec:
  role: KarpenterNodeRole-${w.name}
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: ${w.name}}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: ${w.name}}}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${w.name}}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: ${w.name}}
      requirements:
        - ${w.requirement}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  disruption: ${w.disruption}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${w.name}, namespace: default}
spec:
  replicas: ${w.replicas}
  selector: {matchLabels: {app: ${w.name}}}
  template:
    metadata: {labels: {app: ${w.name}}}
    spec:
      containers:
        - name: app
          image: nginx
          resources: {requests: {cpu: '${w.cpu}', memory: 1Gi}}
`;
}
