/**
 * `npm run bench -- playground [--pods N] [--json]`: N pods (a Deployment with mixed requests) from apply to all
 * Running in a fresh playground: wall and simulated seconds, nodes, and the process's RSS.
 * JSON: {"suite":"playground","scenario":"scale-<N>","pods":N,"wallSeconds":..,"simSeconds":..,"nodes":..,"rssMB":..}.
 */
import { runScenario } from '../../src/sim/scenario/runner.js';
import type { Scenario } from '../../src/sim/scenario/format.js';

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function scenario(pods: number): Scenario {
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
  const small = Math.round(pods * 0.7);
  return {
    name: `scale-${pods}`,
    seed: 1,
    steps: [
      { apply: `${deployment('small', small, '250m', '512Mi')}---\n${deployment('large', pods - small, '1', '2Gi')}` },
      { wait: { for: { allPodsRunning: true }, timeout: '30m' } },
      { expect: { count: { kind: 'Pod', equals: pods } } },
    ],
  };
}

/** Runs the suite. */
export async function playgroundSuite(args: string[]): Promise<void> {
  const pods = flag(args, '--pods', 1000);
  const report = await runScenario(scenario(pods));
  const last = report.samples.at(-1);
  const row = {
    suite: 'playground',
    scenario: `scale-${pods}`,
    pods,
    wallSeconds: Number((report.allRunning?.wallSeconds ?? report.wallSeconds).toFixed(2)),
    simSeconds: report.allRunning?.simSeconds ?? report.simSeconds,
    nodes: (last?.nodesReady ?? 0) + (last?.nodesNotReady ?? 0),
    rssMB: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(row)}\n`);
  else {
    process.stdout.write(`scenario    pods  passed  wall s (to all Running)  sim s  nodes  rss MB\n`);
    process.stdout.write(`${row.scenario}  ${pods}  ${report.passed}  ${row.wallSeconds}  ${row.simSeconds}  ${row.nodes}  ${row.rssMB}\n`);
    if (report.error) process.stdout.write(`error: ${report.error}\n`);
  }
}
