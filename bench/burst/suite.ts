/**
 * `npm run bench -- burst [--pods 500,2000] [--cpu 3] [--instance-types m5.xlarge] [--cpu-prof DIR] [--json]`: how
 * long `tenon controller --cloud-provider fake` keeps its event loop from running while it provisions a burst of
 * pods, and whether it keeps its leader Lease through it. Per size: the embedded API server runs as its own process
 * (`tenon apiserver`), a kube-scheduler and the workload controllers run in this one, and the controller as a third
 * with the chart's defaults (leader election on, info logs); a Deployment of N pods is applied at once. Every 5 s
 * the controller's /metrics is scraped: `nodejs_eventloop_lag_max_seconds` is the longest event-loop delay since
 * the previous scrape (prom-client resets the histogram on each collect), so the largest of them is the longest
 * synchronous stretch of the burst. The run ends when every pod is bound to a node. JSON keys: suite, pods,
 * nodeClaims, seconds, maxLoopDelayMs, worldMaxLoopDelayMs, scrapesOverRenewDeadline, leaseKept.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../../src/clock/index.js';
import {
  Discovery,
  KubeClient,
  Resources,
  transportFromKubeConfig,
  type Lease,
  type Pod,
} from '../../src/kube/index.js';
import { StaticMachines } from '../../src/sim/machines/static-machines.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';
import { allAgentsBut, World } from '../../src/sim/world/world.js';
import {
  fakeWorkloadManifests,
  nodeClaimsResource,
  startFakeController,
  tenonBin,
  type FakeController,
} from '../fake-controller.js';
import { freePort } from '../free-port.js';

const scrapeEveryMs = 5_000;

/** client-go's renew deadline: an event loop blocked longer than this used to cost the lease. */
const renewDeadlineSeconds = 10;

function manifests(replicas: number, cpu: string, instanceTypes: string | undefined): string {
  return fakeWorkloadManifests({
    name: 'burst',
    requirement: instanceTypes
      ? `{key: node.kubernetes.io/instance-type, operator: In, values: [${instanceTypes}]}`
      : '{key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}',
    disruption: '{consolidationPolicy: WhenEmpty, consolidateAfter: 1h}',
    replicas,
    cpu,
  });
}

/** One row of the result. */
interface BurstRow {
  suite: 'burst';
  pods: number;
  nodeClaims: number;
  /** Wall time from the Deployment's creation until every pod is bound to a node. */
  seconds: number;
  maxLoopDelayMs: number;
  /** Whether the benchmark's world kept up: the longest event-loop delay of this process (scheduler, workloads). */
  worldMaxLoopDelayMs: number;
  /** How many scrapes saw a delay over the renew deadline. */
  scrapesOverRenewDeadline: number;
  /** The controller still held the Lease it first took, and never logged losing it. */
  leaseKept: boolean;
}

interface Flags {
  pods: number[];
  cpu: string;
  /** Instance types the NodePool allows (comma-separated); the m5 family when unset. */
  instanceTypes: string | undefined;
  json: boolean;
  cpuProfDir: string | undefined;
}

function parseFlags(args: readonly string[]): Flags {
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const pods = (value('--pods') ?? '500').split(',').map(Number);
  if (pods.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`--pods: must be comma-separated positive integers, got "${value('--pods') ?? ''}"`);
  const cpu = value('--cpu') ?? '3';
  if (!/^\d+(\.\d+)?m?$/.test(cpu)) throw new Error(`--cpu: must be a CPU quantity such as 3 or 500m, got "${cpu}"`);
  const instanceTypes = value('--instance-types');
  if (instanceTypes !== undefined && !/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/.test(instanceTypes))
    throw new Error(`--instance-types: must be comma-separated instance types, got "${instanceTypes}"`);
  return { pods, cpu, instanceTypes, json: args.includes('--json'), cpuProfDir: value('--cpu-prof') };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function startController(kubeconfig: string, metricsPort: number, flags: Flags): FakeController {
  return startFakeController({
    kubeconfig,
    clusterName: 'burst',
    metricsPort,
    cpuProfDir: flags.cpuProfDir,
    keepChars: 200_000,
  });
}

/**
 * `tenon apiserver` as a process of its own: in this process, its event loop would share the scheduler's and the
 * workload controllers' (thousands of pods at once), and a renewal it answered late would cost the leader its lease
 * for reasons that are the benchmark's, not the controller's.
 */
async function startServer(kubeconfig: string): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [tenonBin, 'apiserver', '--port', '0', '--kubeconfig', kubeconfig], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const seen = (d: Buffer): void => {
      out += d.toString();
      if (out.includes('Ctrl-C stops it.')) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then(() => reject(new Error(`tenon apiserver exited:\n${out}`)));
  });
  return {
    stop: async () => {
      child.kill('SIGINT');
      await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** The longest event-loop delay since the last scrape, in ms; undefined when the scrape fails. */
async function scrapeLoopDelayMs(port: number): Promise<number | undefined> {
  try {
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(30_000) })
    ).text();
    const m = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
    return m?.[1] === undefined ? undefined : Number(m[1]) * 1000;
  } catch {
    return undefined;
  }
}

async function holder(client: KubeClient): Promise<string | undefined> {
  const lease = await client
    .get<Lease>(Resources.leases, { name: 'tenon-leader-election', namespace: 'default' })
    .catch(() => undefined);
  return lease?.spec?.holderIdentity;
}

async function measure(n: number, flags: Flags): Promise<BurstRow> {
  const dir = mkdtempSync(join(tmpdir(), 'tenon-burst-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer(kubeconfig);
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const world = new World({
    client,
    clock: systemClock,
    machines: new StaticMachines(),
    disable: allAgentsBut(['scheduler', 'deployments', 'replicaSets']),
  });
  await world.start();
  const metricsPort = await freePort();
  const controller = startController(kubeconfig, metricsPort, flags);
  try {
    let first: string | undefined;
    for (let i = 0; i < 300 && !first; i++, await sleep(500)) {
      if (controller.child.exitCode !== null) throw new Error(`the controller exited:\n${controller.output()}`);
      first = await holder(client);
    }
    // Settled and idle before the burst: the first scrape resets the histogram.
    await sleep(5_000);
    await scrapeLoopDelayMs(metricsPort);
    const ownDelay = monitorEventLoopDelay({ resolution: 10 });
    ownDelay.enable();
    const startedAt = Date.now();
    await applyObjects(client, new Discovery(client), parseManifests(manifests(n, flags.cpu, flags.instanceTypes)));
    let maxLoopDelayMs = 0;
    let over = 0;
    let claims = 0;
    const deadline = startedAt + 300_000 + n * 1_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`not settled after ${(deadline - startedAt) / 1000} s`);
      const delay = await scrapeLoopDelayMs(metricsPort);
      if (delay !== undefined) {
        maxLoopDelayMs = Math.max(maxLoopDelayMs, delay);
        if (delay > renewDeadlineSeconds * 1000) over++;
      }
      if (controller.child.exitCode !== null) break;
      const pods = (await client.list<Pod>(Resources.pods, { namespace: 'default' })).items;
      claims = (await client.list(nodeClaimsResource)).items.length;
      // The controller's part ends when every pod is bound to a node it launched; starting containers is the kubelets'.
      const bound = pods.filter((p) => p.spec.nodeName).length;
      if (!flags.json) {
        const t = ((Date.now() - startedAt) / 1000).toFixed(0);
        process.stderr.write(
          `  t=${t}s loop delay max ${delay?.toFixed(0) ?? '?'} ms, ${claims} NodeClaims, ${bound}/${n} pods bound\n`,
        );
      }
      if (pods.length === n && bound === n) break;
      // A scrape is work for the controller too (per-node gauges are filled at scrape time): not more often than this.
      await sleep(scrapeEveryMs);
    }
    const seconds = (Date.now() - startedAt) / 1000;
    ownDelay.disable();
    const worldMaxLoopDelayMs = ownDelay.max / 1e6;
    if (controller.child.exitCode !== null)
      process.stderr.write(
        `the controller exited (${controller.child.exitCode}):\n${controller.output().slice(-4000)}\n`,
      );
    const leaseKept =
      controller.child.exitCode === null &&
      !/leader election lost/.test(controller.output()) &&
      (await holder(client)) === first;
    return {
      suite: 'burst',
      pods: n,
      nodeClaims: claims,
      seconds,
      maxLoopDelayMs,
      worldMaxLoopDelayMs,
      scrapesOverRenewDeadline: over,
      leaseKept,
    };
  } finally {
    await controller.stop();
    world.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(rows: readonly BurstRow[], cpu: string): void {
  const lines = [
    `tenon controller (--cloud-provider fake) provisioning a burst of pods requesting ${cpu} CPU each`,
    `${'pods'.padStart(6)}  ${'nodeClaims'.padStart(10)}  ${'seconds'.padStart(8)}  ${'max loop delay ms'.padStart(17)}  ${'world max ms'.padStart(12)}  ${'scrapes > 10 s'.padStart(14)}  lease kept`,
    ...rows.map(
      (r) =>
        `${String(r.pods).padStart(6)}  ${String(r.nodeClaims).padStart(10)}  ${r.seconds.toFixed(1).padStart(8)}  ${r.maxLoopDelayMs.toFixed(0).padStart(17)}  ${r.worldMaxLoopDelayMs.toFixed(0).padStart(12)}  ${String(r.scrapesOverRenewDeadline).padStart(14)}  ${r.leaseKept ? 'yes' : 'NO'}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Runs the suite. */
export async function burstSuite(args: string[]): Promise<void> {
  let flags: Flags;
  try {
    flags = parseFlags(args);
  } catch (e) {
    process.stderr.write(`bench burst: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
    return;
  }
  const rows: BurstRow[] = [];
  for (const n of flags.pods) {
    const row = await measure(n, flags);
    rows.push(row);
    if (flags.json) process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  if (!flags.json) printTable(rows, flags.cpu);
}
