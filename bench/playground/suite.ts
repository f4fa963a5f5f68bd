/**
 * `npm run bench -- playground [--pods N] [--small-nodes] [--progress] [--json]`: N pods (a Deployment with mixed requests) from
 * apply to all Running in a fresh playground: wall and simulated seconds, nodes, and the process's RSS (at the end;
 * the table adds the peak, the kernel's maxRSS, and `--progress` prints both every 10 simulated seconds).
 * `--small-nodes` makes every pod 260m/512Mi and limits the NodePool to 2xlarge instances, so the cluster has one
 * node per 30 pods (7,910m allocatable / 260m): 150,000 pods make the 5,000 nodes, the shape that exposes
 * per-node costs.
 * JSON: {"suite":"playground","scenario":"scale-<N>","pods":N,"wallSeconds":..,"simSeconds":..,"nodes":..,"rssMB":..}.
 */
import { runScenario } from '../../src/sim/scenario/runner.js';
import { useLeanHeap } from '../../src/sim/playground/lean-heap.js';
import type { Scenario } from '../../src/sim/scenario/format.js';
import { defaultManifests } from '../../src/sim/playground/defaults.js';
import { playgroundCluster } from '../../src/sim/playground/playground.js';

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The default EC2NodeClass and NodePool, the NodePool held to 2xlarge instances and without a binding cpu limit. */
function smallNodeManifests(): string {
  return defaultManifests(playgroundCluster)
    .replace(
      '- {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"]}',
      '- {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"]}\n        - {key: karpenter.k8s.aws/instance-size, operator: In, values: [2xlarge]}',
    )
    .replace('cpu: "1000"', 'cpu: "100000"');
}

/** The scale scenario: N pods applied at once, then waited for until all are Running. */
export function scaleScenario(pods: number, smallNodes: boolean): Scenario {
  const deployment = (name: string, replicas: number, cpu: string, memory: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: ${cpu}, memory: ${memory}}}}]
`;
  if (smallNodes) {
    return {
      name: `scale-${pods}-small-nodes`,
      seed: 1,
      world: { defaults: false },
      steps: [
        { apply: `${smallNodeManifests()}---\n${deployment('small', pods, '260m', '512Mi')}` },
        // At this size the pods already created can all be Running before the ReplicaSet has created the last ones.
        { wait: { for: { count: { kind: 'Pod', equals: pods } }, timeout: '2h' } },
        { wait: { for: { allPodsRunning: true }, timeout: '2h' } },
        { expect: { count: { kind: 'Pod', equals: pods } } },
      ],
    };
  }
  const small = Math.round(pods * 0.7);
  return {
    name: `scale-${pods}`,
    seed: 1,
    steps: [
      { apply: `${deployment('small', small, '250m', '512Mi')}---\n${deployment('large', pods - small, '1', '2Gi')}` },
      { wait: { for: { allPodsRunning: true }, timeout: '2h' } },
      { expect: { count: { kind: 'Pod', equals: pods } } },
    ],
  };
}

/** Runs the suite. */
export async function playgroundSuite(args: string[]): Promise<void> {
  const pods = flag(args, '--pods', 1000);
  const smallNodes = args.includes('--small-nodes');
  useLeanHeap();
  // The whole process's RSS at its highest, as the kernel counts it (the scale run's goal is about the peak, which
  // falls inside garbage collections, when no timer of ours runs).
  const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
  const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
  const started = performance.now();
  const report = await runScenario(scaleScenario(pods, smallNodes), {
    onProgress: ({ sample }) => {
      if (!args.includes('--progress')) return;
      const wall = ((performance.now() - started) / 1000).toFixed(0);
      process.stderr.write(
        `t=${sample.t}s wall=${wall}s running=${sample.podsRunning} pending=${sample.podsPending} nodes=${sample.nodesReady}+${sample.nodesNotReady} rss=${mb(process.memoryUsage().rss)}MB heap=${mb(process.memoryUsage().heapUsed)}MB peak=${mb(peakRss())}MB\n`,
      );
    },
  });
  const last = report.samples.at(-1);
  const row = {
    suite: 'playground',
    scenario: `scale-${pods}${smallNodes ? '-small-nodes' : ''}`,
    pods,
    // With --small-nodes the first all-Running moment may precede the last pod, so the whole run is timed.
    wallSeconds: Number(((smallNodes ? undefined : report.allRunning?.wallSeconds) ?? report.wallSeconds).toFixed(2)),
    simSeconds: (smallNodes ? undefined : report.allRunning?.simSeconds) ?? report.simSeconds,
    nodes: (last?.nodesReady ?? 0) + (last?.nodesNotReady ?? 0),
    rssMB: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
  // The JSON line keeps exactly the keys (other tools read it); a failed run says why on stderr.
  const failed = report.expectations.filter((e) => !e.passed).map((e) => `${e.description}: ${e.observed}`);
  for (const why of [...(report.error ? [report.error] : []), ...failed])
    process.stderr.write(`playground bench: ${row.scenario} failed: ${why}\n`);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(row)}\n`);
  else {
    process.stdout.write(`scenario    pods  passed  wall s (to all Running)  sim s  nodes  rss MB  peak rss MB\n`);
    process.stdout.write(
      `${row.scenario}  ${pods}  ${report.passed}  ${row.wallSeconds}  ${row.simSeconds}  ${row.nodes}  ${row.rssMB}  ${mb(peakRss())}\n`,
    );
  }
  if (!report.passed) process.exitCode = 1;
}
