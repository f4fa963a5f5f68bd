/**
 * `npm run bench -- apiserver [--json] [--pods N] [--nodes N] [--writes N]`: the embedded API server's write
 * rate over HTTP (client-node as shipped and on a keep-alive agent, Tenon's KubeClient) with the server's CPU
 * time per write, list latency at 10k and N pods, watch fan-out to 100 watchers, and memory for N pods +
 * nodes. Goals from issue 4 are printed beside each figure. The machine is shared: server CPU per operation
 * is the figure that does not move with the load of other processes. Client CPU per operation is printed too,
 * with the write rate the cores allow when client and server share them: (cores × 1 s) / (server + client CPU).
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { KubeClient, Resources, transportFromKubeConfig, watchResource } from '../../src/kube/index.js';
import { keepAliveCoreApi, timeRawGet } from './clients.js';

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
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `app-${i % 50}-7d4b9c8f6`,
          uid: `00000000-0000-0000-0000-${String(i % 50).padStart(12, '0')}`,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: `node-${i % 5000}`,
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/app:1.2.3',
          resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '512Mi' } },
        },
      ],
      tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' }],
    },
  };
}

function nodeBody(i: number): k8s.V1Node {
  return {
    metadata: {
      name: `node-${i}`,
      labels: {
        'kubernetes.io/hostname': `node-${i}`,
        'karpenter.sh/nodepool': 'general',
        'node.kubernetes.io/instance-type': 'm5.large',
        'topology.kubernetes.io/zone': 'us-east-1a',
      },
    },
    spec: { providerID: `aws:///us-east-1a/i-${i.toString(16).padStart(17, '0')}` },
    status: {
      capacity: { cpu: '2', memory: '8Gi', pods: '29' },
      allocatable: { cpu: '1930m', memory: '7Gi', pods: '29' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  };
}

async function pool(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Rate {
  perSecond: number;
  /** Server CPU time (user + system) per operation: what one free core could sustain, whatever else runs. */
  serverCpuUs: number;
  /** The client process's CPU time per operation (the library's own cost: serialization, HTTP, TLS). */
  clientCpuUs: number;
}

async function rate(
  server: ServerProcess,
  run: { n: number; concurrency: number },
  fn: (i: number) => Promise<unknown>,
): Promise<Rate> {
  const cpu0 = await server.cpuMs();
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  await pool(run.n, run.concurrency, fn);
  const seconds = (performance.now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  return {
    perSecond: run.n / seconds,
    serverCpuUs: (((await server.cpuMs()) - cpu0) * 1000) / run.n,
    clientCpuUs: (client.user + client.system) / run.n,
  };
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
    void watchResource(
      client,
      Resources.configMaps,
      { namespace: 'fan', resourceVersion: list.metadata.resourceVersion, signal: abort.signal },
      () => {
        if (++delivered === total) done();
      },
    ).catch(() => undefined);
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  await pool(events, 20, (i) =>
    client.create(Resources.configMaps, { metadata: { name: `cm-${i}`, namespace: 'fan' } }),
  );
  await Promise.race([all, new Promise((r) => setTimeout(r, 60_000))]);
  const s = (performance.now() - t0) / 1000;
  abort.abort();
  return delivered / s;
}

interface ServerProcess {
  kubeConfigYaml: string;
  rssMiB(): Promise<number>;
  cpuMs(): Promise<number>;
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
  // Built (dist/bench/…/*.js) the server runs as JavaScript; from source, through tsx.
  const built = import.meta.url.endsWith('.js');
  const file = fileURLToPath(new URL(built ? './server-process.js' : './server-process.ts', import.meta.url));
  const child = fork(file, [], {
    execArgv: [...(built ? [] : ['--import', 'tsx']), '--expose-gc', '--max-old-space-size=4096'],
  });
  const ready = await nextMessage<{ kubeConfigYaml: string }>(child, 'ready');
  return {
    kubeConfigYaml: ready.kubeConfigYaml,
    rssMiB: async () => {
      const reply = nextMessage<{ rss: number }>(child, 'rss');
      child.send({ type: 'rss' });
      return (await reply).rss / 2 ** 20;
    },
    cpuMs: async () => {
      const reply = nextMessage<{ ms: number }>(child, 'cpu');
      child.send({ type: 'cpu' });
      return (await reply).ms;
    },
    stop: () => child.send({ type: 'stop' }),
  };
}

type Emit = (r: Result) => void;

function emitRate(emit: Emit, metric: string, r: Rate, goal: boolean): void {
  emit({
    suite: 'apiserver',
    metric,
    value: r.perSecond,
    unit: '1/s',
    ...(goal ? { goal: '>= 5000 writes/s', met: r.perSecond >= 5000 } : {}),
  });
  const who = metric.split(' ')[0] ?? '';
  emit({ suite: 'apiserver', metric: `  server CPU per op (${who})`, value: r.serverCpuUs, unit: 'us' });
  emit({ suite: 'apiserver', metric: `  client CPU per op (${who})`, value: r.clientCpuUs, unit: 'us' });
  // With client and server sharing this machine's cores, their CPU per write bounds the rate whatever the server does.
  const cores = os.availableParallelism();
  emit({
    suite: 'apiserver',
    metric: `  most writes/s ${cores} cores allow (${who})`,
    value: (cores * 1e6) / (r.serverCpuUs + r.clientCpuUs),
    unit: '1/s',
  });
}

const labelPatch = { metadata: { labels: { touched: 'yes' } } };
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

// Writes through client-node as shipped (a TLS handshake per request) and on one keep-alive agent, then
// through Tenon's own keep-alive client. Pods pod-0… are created in order; returns how many.
async function measureWrites(server: ServerProcess, kc: k8s.KubeConfig, writes: number, emit: Emit): Promise<number> {
  const shipped = kc.makeApiClient(k8s.CoreV1Api);
  const keepAlive = keepAliveCoreApi(kc);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const few = { n: Math.ceil(writes / 4), concurrency: 32 };
  const many = { n: writes, concurrency: 64 };
  // Warm-up: the first requests pay for JIT compilation.
  await pool(1000, 64, (i) =>
    client.create(Resources.configMaps, { metadata: { name: `warm-${i}`, namespace: 'bench' } }),
  );
  emitRate(
    emit,
    'client-node creates/s, new TLS connection per request',
    await rate(server, few, (i) => shipped.createNamespacedPod({ namespace: 'bench', body: podBody(i, 'bench') })),
    true,
  );
  emitRate(
    emit,
    'client-node updates/s, new TLS connection per request',
    await rate(server, few, (i) =>
      shipped.patchNamespacedPod({ name: `pod-${i}`, namespace: 'bench', body: labelPatch }, mergePatch),
    ),
    true,
  );
  let base = few.n;
  emitRate(
    emit,
    'client-node creates/s, keep-alive agent',
    await rate(server, many, (i) =>
      keepAlive.createNamespacedPod({ namespace: 'bench', body: podBody(base + i, 'bench') }),
    ),
    true,
  );
  emitRate(
    emit,
    'client-node updates/s, keep-alive agent',
    await rate(server, many, (i) =>
      keepAlive.patchNamespacedPod({ name: `pod-${base + i}`, namespace: 'bench', body: labelPatch }, mergePatch),
    ),
    true,
  );
  base += many.n;
  emitRate(
    emit,
    'KubeClient creates/s, keep-alive',
    await rate(server, many, (i) => client.create(Resources.pods, podBody(base + i, 'bench') as never)),
    true,
  );
  emit({
    suite: 'apiserver',
    metric: 'watch fan-out to 100 watchers',
    value: await fanOut(client, 100, 500),
    unit: 'events/s',
  });
  return base + many.n;
}

async function measureList(server: ServerProcess, kc: k8s.KubeConfig, pods: number, emit: Emit): Promise<void> {
  const times = [];
  const cpu0 = await server.cpuMs();
  for (let i = 0; i < 3; i++) times.push(await timeRawGet(kc, '/api/v1/pods'));
  const serverMs = ((await server.cpuMs()) - cpu0) / times.length;
  const best = times.reduce((a, b) => (b.lastByteMs < a.lastByteMs ? b : a));
  const label = `list ${pods / 1000}k pods`;
  emit({
    suite: 'apiserver',
    metric: `${label} (${Math.round(best.bytes / 2 ** 20)} MiB), to last byte`,
    value: best.lastByteMs,
    unit: 'ms',
    goal: '<= 1000 ms',
    met: best.lastByteMs <= 1000,
  });
  emit({ suite: 'apiserver', metric: `${label}, buffered into one string`, value: best.bufferedMs, unit: 'ms' });
  emit({ suite: 'apiserver', metric: `${label}, server CPU per list`, value: serverMs, unit: 'ms' });
}

async function measure(server: ServerProcess, args: string[], emit: Emit): Promise<void> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const pods = flag(args, 'pods', 150_000);
  const nodes = flag(args, 'nodes', 5000);
  await core.createNamespace({ body: { metadata: { name: 'bench' } } });
  await core.createNamespace({ body: { metadata: { name: 'fan' } } });
  const created = await measureWrites(server, kc, flag(args, 'writes', 2000), emit);
  const base = await server.rssMiB();
  await pool(Math.max(0, 10_000 - created), 64, (i) =>
    client.create(Resources.pods, podBody(created + i, 'bench') as never),
  );
  const ten = await timeRawGet(kc, '/api/v1/pods');
  emit({ suite: 'apiserver', metric: 'list 10k pods, to last byte', value: ten.lastByteMs, unit: 'ms' });
  emit({
    suite: 'apiserver',
    metric: 'memory per 10k pods',
    value: ((await server.rssMiB()) - base) * (10_000 / Math.max(1, 10_000 - created)),
    unit: 'MiB',
  });
  const start = Math.max(created, 10_000);
  await pool(Math.max(0, pods - start), 64, (i) => client.create(Resources.pods, podBody(start + i, 'bench') as never));
  await pool(nodes, 64, (i) => client.create(Resources.nodes, nodeBody(i) as never));
  const rss = await server.rssMiB();
  emit({
    suite: 'apiserver',
    metric: `RSS with ${pods / 1000}k pods + ${nodes / 1000}k nodes`,
    value: rss,
    unit: 'MiB',
    goal: '<= 1024 MiB',
    met: rss <= 1024,
  });
  await measureList(server, kc, pods, emit);
  emit({ suite: 'apiserver', metric: 'RSS after listing them', value: await server.rssMiB(), unit: 'MiB' });
}

/** The apiserver benchmark suite. */
export async function apiserverSuite(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const server = await startServerProcess();
  const emit = (r: Result): void => {
    const value = Math.round(r.value * 10) / 10;
    if (json) process.stdout.write(`${JSON.stringify({ ...r, value })}\n`);
    else
      process.stdout.write(
        `${r.metric.padEnd(56)} ${String(value).padStart(10)} ${r.unit.padEnd(9)} ${r.goal ? `goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}` : ''}\n`,
      );
  };
  try {
    await measure(server, args, emit);
  } finally {
    server.stop();
  }
}
