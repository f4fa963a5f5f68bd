/**
 * `npm run bench -- idle [--sizes 50,500] [--seconds 20] [--settle 30] [--with-node-leases] [--cpu-prof DIR] [--json]`: the CPU an idle
 * `tenon controller --cloud-provider fake` uses, as a share of one core, in a cluster where it already runs N
 * NodeClaims. Per size: the embedded API server and a kube-scheduler run in this process; the controller runs as
 * its own process with the chart's defaults (leader election on, info logs); a Deployment of N pods that each need
 * a whole m5.xlarge makes it launch N NodeClaims; once all pods run and every NodeClaim is initialized, and a settle
 * time has passed (the controller's reaction to the last change: conditions, a consolidation pass over the new
 * nodes and its events), the controller's CPU time (from /proc) is read over a fixed wall window. The window must
 * be idle: if any NodeClaim, pod or Event changed during it, the run fails and asks for a longer settle. The fake
 * cloud's simulated kubelets run inside the controller's process, but their Node Lease renewals (one write per
 * machine every 10 s, which real machines make themselves) are off unless `--with-node-leases`, so the figure is
 * the controllers'.
 * JSON keys: suite, nodeClaims, seconds, cpuSeconds, cpuPercentOfCore. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionTypes } from '../../src/api/index.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { systemClock } from '../../src/clock/index.js';
import { Discovery, KubeClient, Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import { StaticMachines } from '../../src/sim/machines/static-machines.js';
import { inProcessTransport } from '../../src/sim/playground/in-process-transport.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';
import { allAgentsBut, World, type AgentName } from '../../src/sim/world/world.js';
import { clockTicksPerSecond, processCpuSeconds } from './process-cpu.js';
import {
  fakeWorkloadManifests,
  nodeClaimsResource,
  startFakeController,
  type FakeController,
} from '../fake-controller.js';

/** One pod per m5.xlarge (4 vCPU): 3 CPU fits one and never two, so the cluster has exactly N NodeClaims. */
function manifests(replicas: number): string {
  return fakeWorkloadManifests({
    name: 'idle',
    requirement: '{key: node.kubernetes.io/instance-type, operator: In, values: [m5.xlarge]}',
    disruption: '{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s}',
    replicas,
    cpu: '3',
  });
}

/** One row of the result. */
interface IdleRow {
  suite: 'idle';
  nodeClaims: number;
  seconds: number;
  cpuSeconds: number;
  cpuPercentOfCore: number;
}

interface Flags {
  sizes: number[];
  seconds: number;
  settle: number;
  json: boolean;
  /** Where the controller writes a V8 CPU profile (node --cpu-prof) when it exits; none by default. */
  cpuProfDir: string | undefined;
  /** Whether the fake cloud's simulated kubelets renew Node Leases inside the measured process. */
  nodeLeases: boolean;
}

function parseFlags(args: readonly string[]): Flags {
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const positive = (name: string, fallback: number): number => {
    const text = value(name);
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: must be a positive number, got "${text ?? ''}"`);
    return n;
  };
  const sizes = (value('--sizes') ?? '50,500').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`--sizes: must be comma-separated positive integers, got "${value('--sizes') ?? ''}"`);
  return {
    sizes,
    seconds: positive('--seconds', 20),
    settle: positive('--settle', 30),
    json: args.includes('--json'),
    cpuProfDir: value('--cpu-prof'),
    nodeLeases: args.includes('--with-node-leases'),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The controller process, with the tail of its output for the error message when it fails. */
function startController(kubeconfig: string, flags: Flags): FakeController {
  return startFakeController({
    kubeconfig,
    clusterName: 'idle',
    nodeLeases: flags.nodeLeases,
    cpuProfDir: flags.cpuProfDir,
    keepChars: 4000,
  });
}

/** Whether a NodeClaim's Initialized condition is True (what `kubectl get nodeclaims` shows as READY). */
function initialized(claim: KubeObject): boolean {
  const conditions = (claim as { status?: { conditions?: Array<{ type: string; status: string }> } }).status
    ?.conditions;
  return conditions?.some((c) => c.type === ConditionTypes.initialized && c.status === 'True') ?? false;
}

/**
 * Waits (wall clock) until every pod runs on one of exactly `n` NodeClaims and every NodeClaim is initialized (the
 * controller is done launching them); throws after `timeoutMs`.
 */
async function waitSettled(o: {
  client: KubeClient;
  n: number;
  controller: FakeController;
  timeoutMs: number;
}): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  let seen = '';
  while (Date.now() < deadline) {
    if (o.controller.child.exitCode !== null) throw new Error(`the controller exited:\n${o.controller.output()}`);
    const claims = (await o.client.list(nodeClaimsResource)).items;
    const ready = claims.filter(initialized).length;
    const pods = (await o.client.list<Pod>(Resources.pods, { namespace: 'default' })).items;
    const running = pods.filter((p) => p.status?.phase === 'Running').length;
    const stuck = pods
      .filter((p) => p.status?.phase !== 'Running')
      .slice(0, 3)
      .map((p) => `${p.metadata.name ?? ''} ${p.status?.phase ?? 'no phase'} on ${p.spec.nodeName || 'no node'}`);
    seen = `${claims.length} NodeClaims (${ready} initialized), ${running}/${o.n} pods Running${stuck.length ? `; not Running: ${stuck.join(', ')}` : ''}`;
    if (claims.length === o.n && ready === o.n && running === o.n) return;
    await sleep(1000);
  }
  throw new Error(`not settled within ${o.timeoutMs / 1000} s (${seen}); controller output:\n${o.controller.output()}`);
}

/** The resourceVersion of every NodeClaim, pod and Event, by kind and name: what the controller writes when it acts. */
async function objectVersions(client: KubeClient): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [kind, type] of [
    ['NodeClaim', nodeClaimsResource],
    ['Pod', Resources.pods],
    ['Event', Resources.events],
  ] as const) {
    for (const o of (await client.list<KubeObject>(type)).items)
      out.set(`${kind} ${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`, o.metadata.resourceVersion ?? '');
  }
  return out;
}

/** What changed between two objectVersions() snapshots, as "2 NodeClaim, 1 Event" (empty when nothing did). */
function changedBetween(before: Map<string, string>, after: Map<string, string>): string {
  const counts = new Map<string, number>();
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(key) === after.get(key)) continue;
    const kind = key.slice(0, key.indexOf(' '));
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

async function startWorld(server: ApiServer): Promise<{ client: KubeClient; world: World }> {
  const client = new KubeClient(inProcessTransport(server));
  // The cluster's side only: a kube-scheduler and the workload controllers (the kubelets are the fake cloud's).
  const run: readonly AgentName[] = ['scheduler', 'deployments', 'replicaSets'];
  const world = new World({
    client,
    clock: systemClock,
    machines: new StaticMachines(),
    disable: allAgentsBut(run),
  });
  await world.start();
  return { client, world };
}

async function measure(n: number, flags: Flags, ticks: number): Promise<IdleRow> {
  const server = await startApiServer({});
  const dir = mkdtempSync(join(tmpdir(), 'tenon-idle-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, server.kubeConfigYaml, { mode: 0o600 });
  const { client, world } = await startWorld(server);
  const controller = startController(kubeconfig, flags);
  try {
    await applyObjects(client, new Discovery(client), parseManifests(manifests(n)));
    await waitSettled({ client, n, controller, timeoutMs: 120_000 + n * 1_000 });
    await sleep(flags.settle * 1000);
    const versions = await objectVersions(client);
    const pid = controller.child.pid ?? 0;
    const before = processCpuSeconds(pid, ticks);
    const startedAt = Date.now();
    await sleep(flags.seconds * 1000);
    const cpuSeconds = processCpuSeconds(pid, ticks) - before;
    const seconds = (Date.now() - startedAt) / 1000;
    // Idle means nothing changed: a launch, a status write, a disruption or its events in the window would measure
    // the controller acting on a change, not idling.
    await waitSettled({ client, n, controller, timeoutMs: 1 });
    const changed = changedBetween(versions, await objectVersions(client));
    if (changed) throw new Error(`not idle: ${changed} object(s) changed during the window; try a longer --settle`);
    return { suite: 'idle', nodeClaims: n, seconds, cpuSeconds, cpuPercentOfCore: (cpuSeconds / seconds) * 100 };
  } finally {
    await controller.stop();
    world.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(rows: readonly IdleRow[], nodeLeases: boolean): void {
  const kubelets = nodeLeases ? 'simulated kubelets renewing Node Leases' : 'no Node Lease renewals';
  const lines = [
    `idle tenon controller (--cloud-provider fake, ${kubelets}); goal < 2% of a core`,
    `${'nodeClaims'.padStart(10)}  ${'window s'.padStart(8)}  ${'cpu s'.padStart(7)}  ${'% of a core'.padStart(11)}`,
    ...rows.map(
      (r) =>
        `${String(r.nodeClaims).padStart(10)}  ${r.seconds.toFixed(1).padStart(8)}  ${r.cpuSeconds.toFixed(2).padStart(7)}  ${r.cpuPercentOfCore.toFixed(2).padStart(11)}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Runs the suite. */
export async function idleSuite(args: string[]): Promise<void> {
  let flags: Flags;
  try {
    flags = parseFlags(args);
  } catch (e) {
    process.stderr.write(`bench idle: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
    return;
  }
  const ticks = clockTicksPerSecond();
  const rows: IdleRow[] = [];
  for (const n of flags.sizes) {
    let row: IdleRow;
    try {
      row = await measure(n, flags, ticks);
    } catch (e) {
      // A run that did not settle or was not idle says so in one message (with the controller's output if any).
      process.stderr.write(`bench idle at ${n} NodeClaims: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
      return;
    }
    rows.push(row);
    if (flags.json) process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  if (!flags.json) printTable(rows, flags.nodeLeases);
}
