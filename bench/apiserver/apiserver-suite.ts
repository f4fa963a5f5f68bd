/**
 * `npm run bench -- apiserver [--json] [--pods N] [--nodes N] [--writes N]`: the embedded API server's write
 * rate over HTTP (client-node and Tenon's keep-alive KubeClient), list latency at 10k and N pods, watch
 * fan-out to 100 watchers, and memory for N pods + nodes. Goals from issue 4 are printed beside each figure.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { KubeClient, Resources, transportFromKubeConfig, watchResource } from '../../src/kube/index.js';

interface Result {
  suite: 'apiserver';
  metric: string;
  value: number;
  unit: string;
  goal?: string;
  met?: boolean;
}

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function podBody(i: number, ns: string): k8s.V1Pod {
  return {
    metadata: {
      name: `pod-${i}`,
      namespace: ns,
      labels: { app: `app-${i % 50}`, 'pod-template-hash': '7d4b9c8f6' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${i % 50}-7d4b9c8f6`, uid: `00000000-0000-0000-0000-${String(i % 50).padStart(12, '0')}`, controller: true }],
    },
    spec: {
      nodeName: `node-${i % 5000}`,
      containers: [{ name: 'app', image: 'registry.example.com/app:1.2.3', resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '512Mi' } } }],
      tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' }],
    },
  };
}

function nodeBody(i: number): k8s.V1Node {
  return {
    metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}`, 'karpenter.sh/nodepool': 'general', 'node.kubernetes.io/instance-type': 'm5.large', 'topology.kubernetes.io/zone': 'us-east-1a' } },
    spec: { providerID: `aws:///us-east-1a/i-${i.toString(16).padStart(17, '0')}` },
    status: { capacity: { cpu: '2', memory: '8Gi', pods: '29' }, allocatable: { cpu: '1930m', memory: '7Gi', pods: '29' }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  };
}

async function pool(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function rate(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await pool(n, concurrency, fn);
  return n / ((performance.now() - t0) / 1000);
}

async function timeList(client: KubeClient): Promise<number> {
  const t0 = performance.now();
  const res = await client.transport.request({ method: 'GET', path: '/api/v1/pods' });
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`list failed: ${res.status}`);
  return ms;
}

async function fanOut(client: KubeClient, watchers: number, events: number): Promise<number> {
  const abort = new AbortController();
  // One signal is shared by the 100 watch streams.
  setMaxListeners(watchers + 10, abort.signal);
  let delivered = 0;
  const total = watchers * events;
  let done: () => void = () => undefined;
  const all = new Promise<void>((r) => (done = r));
  const list = await client.list(Resources.configMaps, { namespace: 'fan' });
  for (let w = 0; w < watchers; w++) {
    void watchResource(client, Resources.configMaps, { namespace: 'fan', resourceVersion: list.metadata.resourceVersion, signal: abort.signal }, () => {
      if (++delivered === total) done();
    }).catch(() => undefined);
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  await pool(events, 20, (i) => client.create(Resources.configMaps, { metadata: { name: `cm-${i}`, namespace: 'fan' } }));
  await Promise.race([all, new Promise((r) => setTimeout(r, 60_000))]);
  const s = (performance.now() - t0) / 1000;
  abort.abort();
  return delivered / s;
}

interface ServerProcess {
  kubeConfigYaml: string;
  rssMiB(): Promise<number>;
  stop(): void;
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }): void => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
  });
}

async function startServerProcess(): Promise<ServerProcess> {
  const file = fileURLToPath(new URL('./server-process.ts', import.meta.url));
  const child = fork(file, [], { execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=4096'] });
  const ready = await nextMessage<{ kubeConfigYaml: string }>(child, 'ready');
  return {
    kubeConfigYaml: ready.kubeConfigYaml,
    rssMiB: async () => {
      const reply = nextMessage<{ rss: number }>(child, 'rss');
      child.send({ type: 'rss' });
      return (await reply).rss / 2 ** 20;
    },
    stop: () => child.send({ type: 'stop' }),
  };
}

async function measure(server: ServerProcess, args: string[], emit: (r: Result) => void): Promise<void> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const writes = flag(args, 'writes', 2000);
  const pods = flag(args, 'pods', 150_000);
  const nodes = flag(args, 'nodes', 5000);
  await core.createNamespace({ body: { metadata: { name: 'bench' } } });
  await core.createNamespace({ body: { metadata: { name: 'fan' } } });
  // Warm-up: the first requests pay for JIT compilation and the keep-alive pool's TLS handshakes.
  await pool(1000, 64, (i) => client.create(Resources.configMaps, { metadata: { name: `warm-${i}`, namespace: 'bench' } }));
  const creates = await rate(writes, 32, (i) => core.createNamespacedPod({ namespace: 'bench', body: podBody(i, 'bench') }));
  emit({ suite: 'apiserver', metric: 'client-node creates/s', value: creates, unit: '1/s', goal: '>= 5000 writes/s', met: creates >= 5000 });
  const updates = await rate(writes, 32, (i) => core.patchNamespacedPod({ name: `pod-${i}`, namespace: 'bench', body: { metadata: { labels: { touched: 'yes' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)));
  emit({ suite: 'apiserver', metric: 'client-node updates/s', value: updates, unit: '1/s', goal: '>= 5000 writes/s', met: updates >= 5000 });
  const keepAlive = await rate(writes * 2, 64, (i) => client.create(Resources.pods, podBody(writes + i, 'bench') as never));
  emit({ suite: 'apiserver', metric: 'keep-alive KubeClient creates/s', value: keepAlive, unit: '1/s', goal: '>= 5000 writes/s', met: keepAlive >= 5000 });
  emit({ suite: 'apiserver', metric: 'watch fan-out to 100 watchers', value: await fanOut(client, 100, 500), unit: 'events/s' });
  const base = await server.rssMiB();
  await pool(10_000 - 3 * writes, 64, (i) => client.create(Resources.pods, podBody(3 * writes + i, 'bench') as never));
  emit({ suite: 'apiserver', metric: 'list 10k pods', value: await timeList(client), unit: 'ms' });
  emit({ suite: 'apiserver', metric: 'memory per 10k pods', value: (await server.rssMiB()) - base, unit: 'MiB' });
  await pool(Math.max(0, pods - 10_000), 64, (i) => client.create(Resources.pods, podBody(10_000 + i, 'bench') as never));
  await pool(nodes, 64, (i) => client.create(Resources.nodes, nodeBody(i) as never));
  const rss = await server.rssMiB();
  emit({ suite: 'apiserver', metric: `RSS with ${pods / 1000}k pods + ${nodes / 1000}k nodes`, value: rss, unit: 'MiB', goal: '<= 1024 MiB', met: rss <= 1024 });
  const listMs = Math.min(await timeList(client), await timeList(client));
  emit({ suite: 'apiserver', metric: `list ${pods / 1000}k pods`, value: listMs, unit: 'ms', goal: '<= 1000 ms', met: listMs <= 1000 });
  emit({ suite: 'apiserver', metric: 'RSS after listing them', value: await server.rssMiB(), unit: 'MiB' });
}

/** The apiserver benchmark suite. */
export async function apiserverSuite(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const server = await startServerProcess();
  const emit = (r: Result): void => {
    const value = Math.round(r.value * 10) / 10;
    if (json) process.stdout.write(`${JSON.stringify({ ...r, value })}\n`);
    else process.stdout.write(`${r.metric.padEnd(42)} ${String(value).padStart(10)} ${r.unit.padEnd(9)} ${r.goal ? `goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}` : ''}\n`);
  };
  try {
    await measure(server, args, emit);
  } finally {
    server.stop();
  }
}
