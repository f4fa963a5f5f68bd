/**
 * What the suites under test/cluster share: the real control plane's kubeconfig (test/cluster/run.sh brings the
 * plane up and sets TENON_CLUSTER_KUBECONFIG), a client for it, polling for an outcome, and `tenon` as a child
 * process. The real components run on the wall clock, so these suites wait for outcomes with a deadline.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Discovery, KubeClient, transportFromKubeConfig } from '../../src/kube/index.js';

/** The kubeconfig of the running control plane; throws with the way to get one when there is none. */
export function clusterKubeconfig(): string {
  const file = process.env.TENON_CLUSTER_KUBECONFIG;
  if (!file) throw new Error('TENON_CLUSTER_KUBECONFIG is not set: run these suites with `npm run test:cluster`');
  return file;
}

/** A client (and discovery) for the control plane. */
export async function clusterClient(): Promise<{ client: KubeClient; discovery: Discovery; kubeConfig: KubeConfig }> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(clusterKubeconfig());
  const client = new KubeClient(await transportFromKubeConfig(kubeConfig));
  return { client, discovery: new Discovery(client), kubeConfig };
}

/** Polls `probe` until it returns a value other than undefined; throws naming `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

export { freePort } from '../../bench/free-port.js';

/** A `tenon` child process and its combined output. */
export interface TenonProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
}

/** Starts `tenon ARGS` (the CLI as users run it) with extra environment. */
export function startTenon(args: string[], env: Record<string, string> = {}): TenonProcess {
  const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'tenon.js'), ...args], {
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, output: () => out, exited, stop };
}

/**
 * An EC2NodeClass and an on-demand NodePool, both named `name`, limited to `instanceTypes` (YAML, for
 * applyObjects); `disruption` is the NodePool's spec.disruption as flow YAML, if any.
 */
export function fakeNodePool(name: string, instanceTypes: readonly string[], disruption?: string): string {
  return `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: ${name}}
spec:
  role: KarpenterNodeRole-test
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: test}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: test}}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${name}}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: ${name}}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [${instanceTypes.join(', ')}]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
${disruption ? `  disruption: ${disruption}\n` : ''}`;
}
