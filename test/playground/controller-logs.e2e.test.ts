/**
 * `kubectl logs -n kube-system tenon` in the playground, as a Karpenter user reads the controller's log: a Running
 * pod that nothing schedules or provisions for, whose log the embedded API server serves with --tail, --since,
 * --timestamps and -f.
 */
import { describe, expect, it } from 'vitest';
import { Resources, type Pod } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { hasKubectl, kubectlFor, type Kubectl } from '../apiserver/kubectl-helpers.js';

const kubectlVersion = '1.33';

const workload = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx, resources: {requests: {cpu: "1"}}}]
`;

/** Polls a condition on real output (kubectl's stream) while simulated time moves on; fails after `tries`. */
async function until(pg: Playground, what: string, ok: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (ok()) return;
    await pg.clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function logLines(text: string): string[] {
  return text.split('\n').filter((l) => l.length > 0);
}

async function logs(k: Kubectl, ...args: string[]): Promise<string[]> {
  const r = await k.run(['logs', '-n', 'kube-system', 'tenon', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return logLines(r.stdout);
}

describe.skipIf(!hasKubectl(kubectlVersion))('kubectl logs of the tenon pod', () => {
  it('serves the controllers log with --tail, --timestamps, --since and -f, from a pod nothing places', async () => {
    const pg = await startPlayground({ controllerPod: true });
    if (!pg.server) throw new Error('the playground serves its own API server');
    const kubectl = kubectlFor(pg.server, kubectlVersion);
    const follow = kubectl.start(['logs', '-n', 'kube-system', 'tenon', '-f']);
    try {
      const pod = JSON.parse(
        (await kubectl.run(['get', 'pod', '-n', 'kube-system', 'tenon', '-o', 'json'])).stdout,
      ) as Pod;
      expect(pod.status?.phase).toBe('Running');
      // Neither the kube-scheduler nor Tenon acts on it: two idle minutes, no node, no NodeClaim.
      await pg.clock.advance(120_000);
      const still = await pg.clock.busy(
        pg.client.get<Pod>(Resources.pods, { namespace: 'kube-system', name: 'tenon' }),
      );
      expect(still.spec.nodeName).toBeUndefined();
      expect((await pg.clock.busy(pg.client.list(Resources.nodeClaims))).items).toHaveLength(0);

      expect((await kubectl.run(['apply', '-f', '-'], workload)).code).toBe(0);
      await until(pg, '"launched nodeclaim" in kubectl logs -f', () => follow.output().includes('launched nodeclaim'));

      // The cluster settles (nodes up, pods bound) before the log is read twice; lines only ever append.
      await pg.clock.advance(120_000);
      const tail = await logs(kubectl, '--tail=2');
      const all = await logs(kubectl);
      expect(tail).toHaveLength(2);
      expect(all.length).toBeGreaterThan(2);
      for (const l of all)
        expect(JSON.parse(l)).toMatchObject({ level: expect.any(String), message: expect.any(String) });
      const at = all.indexOf(tail[0] ?? '');
      expect(all.slice(at, at + 2)).toEqual(tail);

      // --timestamps: each line prefixed with when it was written, which is the simulated time the line carries.
      const stamped = await logs(kubectl, '--timestamps');
      expect(stamped.map((l) => l.slice(l.indexOf(' ') + 1)).slice(0, all.length)).toEqual(all);
      for (const l of stamped) {
        const stamp = l.slice(0, l.indexOf(' '));
        expect(Date.parse(stamp)).toBe(Date.parse((JSON.parse(l.slice(stamp.length + 1)) as { time: string }).time));
      }

      // --since counts back from the server's (simulated) now.
      await pg.clock.advance(600_000);
      const times = stamped.map((l) => Date.parse(l.slice(0, l.indexOf(' '))));
      const cut = pg.clock.now() - 605_000;
      const recent = stamped.filter((_l, i) => (times[i] ?? 0) >= cut).map((l) => l.slice(l.indexOf(' ') + 1));
      expect(recent.length).toBeLessThan(stamped.length);
      expect((await logs(kubectl, '--since=605s')).slice(0, recent.length)).toEqual(recent);
    } finally {
      follow.stop();
      kubectl.dispose();
      await pg.stop();
    }
  });

  it('answers an empty log for a simulated workload pod, and no previous container for the tenon pod', async () => {
    const pg = await startPlayground({ controllerPod: true });
    if (!pg.server) throw new Error('the playground serves its own API server');
    const kubectl = kubectlFor(pg.server, kubectlVersion);
    try {
      expect((await kubectl.run(['apply', '-f', '-'], workload)).code).toBe(0);
      const names = (await kubectl.run(['get', 'pods', '-o', 'name'])).stdout.trim().split('\n');
      const first = await kubectl.run(['logs', names[0] ?? '']);
      expect(first).toMatchObject({ code: 0, stdout: '' });
      const previous = await kubectl.run(['logs', '-n', 'kube-system', 'tenon', '--previous']);
      expect(previous.code).not.toBe(0);
      expect(previous.stderr).toContain('previous terminated container "controller" in pod "tenon" not found');
    } finally {
      kubectl.dispose();
      await pg.stop();
    }
  });
});
