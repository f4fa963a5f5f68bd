/**
 * `npm run bench -- provisioning [--pods N] [--json]`: a burst of N unschedulable pods against the embedded API
 * server, with the fake cloud provider launching instantly. For each pod: the time from its creation to the
 * create of the NodeClaim that hosts it, minus the time it waited for the batch window to close (a pod created
 * before the window closed counts from the close). JSON: {"suite","pods","p50Ms","p99Ms","nodeClaims"}.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { startApiServer } from '../../src/apiserver/index.js';
import { FakeCloudProvider, fakeInstanceType } from '../../src/cloudprovider/fake/index.js';
import { systemClock } from '../../src/clock/index.js';
import type { ProvisioningController, ProvisioningPass } from '../../src/controllers/provisioning/controller.js';
import { KubeClient, Resources, transportFromKubeConfig, type Pod } from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { startOperator } from '../../src/operator/operator.js';
import { defaultOptions } from '../../src/settings/options.js';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

async function createPending(client: KubeClient, name: string): Promise<number> {
  await client.create<Pod>(Resources.pods, {
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '500m', memory: '512Mi' } } }] },
  });
  await client.patch(
    Resources.pods,
    { name, namespace: 'default' },
    { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } },
    { subresource: 'status' },
  );
  return Date.now();
}

function record(hosted: Map<string, number>, c: { pods: string[] }, latency: (pod: string) => number): void {
  for (const p of c.pods) if (!hosted.has(p)) hosted.set(p, latency(p));
}

/** Runs the suite. */
export async function provisioningSuite(args: string[]): Promise<void> {
  const pods = flag(args, '--pods', 1000);
  const json = args.includes('--json');
  const server = await startApiServer();
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  const offer = [{ zone: 'zone-a', capacityType: 'on-demand' as const, price: 0.2 }];
  const cloud = new FakeCloudProvider({
    instanceTypes: [
      fakeInstanceType({ name: 'm.large', cpu: 8, memoryGi: 32, offerings: offer }),
      fakeInstanceType({
        name: 'm.xlarge',
        cpu: 16,
        memoryGi: 64,
        offerings: offer.map((o) => ({ ...o, price: 0.4 })),
      }),
    ],
  });
  const log = createLogger({ level: 'error', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const op = await startOperator({
    client,
    cloudProvider: cloud,
    clock: systemClock,
    options: { ...defaultOptions, clusterName: 'bench' },
    log,
  });
  const provisioner = op.controllers.find((c) => c.name === 'provisioning') as ProvisioningController;
  const passes: ProvisioningPass[] = [];
  provisioner.onPass = (p) => passes.push(p);
  await client.create(Resources.nodePools, {
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
      },
    },
  } as never);

  const createdAt = new Map<string, number>();
  const names = Array.from({ length: pods }, (_, i) => `burst-${i}`);
  for (let i = 0; i < names.length; i += 100) {
    await Promise.all(
      names.slice(i, i + 100).map(async (n) => createdAt.set(`default/${n}`, await createPending(client, n))),
    );
  }
  const deadline = Date.now() + 120_000;
  const hosted = new Map<string, number>();
  while (hosted.size < pods && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    for (const pass of passes)
      for (const c of pass.created) record(hosted, c, (p) => c.at - Math.max(createdAt.get(p) ?? 0, pass.startedAt));
  }
  const latencies = [...hosted.values()].map((v) => Math.max(0, v)).sort((a, b) => a - b);
  const nodeClaims = passes.reduce((s, p) => s + p.created.length, 0);
  const row = {
    suite: 'provisioning',
    pods,
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    nodeClaims,
  };
  await op.stop();
  await server.close();
  if (json) process.stdout.write(`${JSON.stringify(row)}\n`);
  else {
    const solveMs = passes.map((p) => Math.round(p.solveMs)).join(',');
    process.stdout.write(
      `pods  hosted  p50 ms  p99 ms  nodeClaims  passes  solve ms\n${pods}  ${hosted.size}  ${row.p50Ms}  ${row.p99Ms}  ${nodeClaims}  ${passes.length}  ${solveMs}\n`,
    );
  }
}
