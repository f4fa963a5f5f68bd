/**
 * The controller process killed as SIGKILL kills it, at an await in the middle of a launch, a registration, a
 * drain or a deletion, then started again with nothing of the old one's memory: the cluster converges. Every pod
 * runs, no NodeClaim stays stuck, no instance runs without a NodeClaim once the garbage collector has had its
 * period, and every object the user created is still there.
 */
import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../src/api/index.js';
import { Resources, type KubeObject, type Pod } from '../../src/kube/index.js';
import type { ControllerCall, KillPoint } from '../../src/sim/playground/controller-process.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';

type Claim = NodeClaim & KubeObject;
const replicas = 6;
const minute = 60_000;

const workload = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`;

const kube =
  (verb: RegExp, path: RegExp) =>
  (c: ControllerCall): boolean =>
    c.api === 'kube' && verb.test(c.verb) && path.test(c.path);
const aws =
  (op: string) =>
  (c: ControllerCall): boolean =>
    c.api === 'aws' && c.verb === op;

async function claims(pg: Playground): Promise<Claim[]> {
  return (await pg.clock.busy(pg.observer.client.list<Claim>(Resources.nodeClaims))).items;
}

async function settledState(pg: Playground): Promise<boolean> {
  const pods = (await pg.clock.busy(pg.observer.client.list<Pod>(Resources.pods, { namespace: 'default' }))).items;
  const live = pods.filter((p) => !p.metadata.deletionTimestamp);
  const deleting = (await claims(pg)).some((nc) => nc.metadata.deletionTimestamp);
  return !deleting && live.length === replicas && live.every((p) => p.status?.phase === 'Running');
}

/** Advances until every pod runs and nothing is deleting; false past `limitMs`. */
async function converge(pg: Playground, limitMs = 20 * minute): Promise<boolean> {
  const end = pg.clock.now() + limitMs;
  while (pg.clock.now() < end) {
    if (await settledState(pg)) return true;
    await pg.clock.advance(10_000);
  }
  return settledState(pg);
}

/** Instances running or starting that no NodeClaim names. */
async function leaked(pg: Playground): Promise<string[]> {
  const known = new Set((await claims(pg)).map((nc) => nc.status?.providerID?.split('/').pop()));
  return pg.ec2
    .listInstances({ states: ['pending', 'running'] })
    .map((i) => i.instanceId)
    .filter((id) => !known.has(id));
}

/** The objects the user created, by kind/name. */
async function userObjects(pg: Playground): Promise<string[]> {
  const c = pg.observer.client;
  const names = async (rt: Parameters<typeof c.list>[0], ns?: string): Promise<string[]> =>
    (await pg.clock.busy(c.list<KubeObject>(rt, ns ? { namespace: ns } : {}))).items.map(
      (o) => `${rt.kind}/${o.metadata.name ?? ''}`,
    );
  return [
    ...(await names(Resources.nodePools)),
    ...(await names(Resources.ec2NodeClasses)),
    ...(await names(Resources.deployments, 'default')),
  ].sort();
}

/** Starts the playground with the workload running on its nodes. */
async function running(): Promise<Playground> {
  const pg = await startPlayground({ seed: 27, defaults: true });
  await pg.clock.busy(applyObjects(pg.observer.client, pg.observer.discovery, parseManifests(workload)));
  return pg;
}

/** Kills the controllers at `at`, then checks that everything converges. */
async function killAndConverge(pg: Playground, at: KillPoint): Promise<void> {
  const before = await userObjects(pg);
  let landedOn: ControllerCall | undefined | 'not yet' = 'not yet';
  const kill = pg.killControllers({ at, restartAfterMs: 15_000 }).then((call) => (landedOn = call));
  expect(await converge(pg)).toBe(true);
  await kill;
  // The kill landed on the call it aimed at (not at the deadline), and the new controllers run.
  expect(landedOn !== 'not yet' && landedOn !== undefined && at.match(landedOn)).toBe(true);
  // Past the garbage collector's period, no instance runs for nobody.
  await pg.clock.advance(6 * minute);
  expect(await leaked(pg)).toEqual([]);
  expect(await settledState(pg)).toBe(true);
  expect(await userObjects(pg)).toEqual(before);
}

/** Deletes the NodeClaim with most pods: its node is drained and its instance terminated. */
async function deleteBusiestClaim(pg: Playground): Promise<void> {
  expect(await converge(pg)).toBe(true);
  const pods = (await pg.clock.busy(pg.observer.client.list<Pod>(Resources.pods, { namespace: 'default' }))).items;
  const busiest = (await claims(pg))
    .map((nc) => ({ nc, n: pods.filter((p) => p.spec.nodeName === nc.status?.nodeName).length }))
    .sort((a, b) => b.n - a.n)[0]?.nc;
  if (!busiest) throw new Error('no NodeClaim');
  await pg.clock.busy(pg.observer.client.delete(Resources.nodeClaims, { name: busiest.metadata.name ?? '' }));
}

describe('the controllers killed at any await converge once restarted', () => {
  it.each<[string, KillPoint]>([
    ['mid-launch: CreateFleet reached EC2, its answer lost', { match: aws('createFleet'), delivered: true }],
    ['mid-launch: before the NodeClaim create reached the server', { match: kube(/^POST$/, /\/nodeclaims$/) }],
    [
      'mid-registration: the Node update reached the server, its answer lost',
      { match: kube(/^(PATCH|PUT)$/, /\/api\/v1\/nodes\/[^/]+$/), delivered: true },
    ],
    [
      'mid-registration: before the NodeClaim status reached the server',
      { match: kube(/^(PATCH|PUT)$/, /\/nodeclaims\/[^/]+\/status$/), skip: 2 },
    ],
  ])(
    '%s',
    async (_what, at) => {
      const pg = await running();
      try {
        await killAndConverge(pg, at);
      } finally {
        await pg.stop();
      }
    },
    300_000,
  );

  it.each<[string, KillPoint]>([
    [
      'mid-drain: an eviction reached the server, its answer lost',
      { match: kube(/^POST$/, /\/eviction$/), delivered: true },
    ],
    ['mid-deletion: before TerminateInstances reached EC2', { match: aws('terminateInstances') }],
    [
      'mid-deletion: the NodeClaim finalizer removal reached the server, its answer lost',
      { match: kube(/^(PATCH|PUT)$/, /\/nodeclaims\/[^/]+$/), delivered: true },
    ],
  ])(
    '%s',
    async (_what, at) => {
      const pg = await running();
      try {
        await deleteBusiestClaim(pg);
        await killAndConverge(pg, at);
      } finally {
        await pg.stop();
      }
    },
    300_000,
  );
});
