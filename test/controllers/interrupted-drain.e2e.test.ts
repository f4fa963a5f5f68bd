/**
 * The drain of an interrupted node against the embedded API server and the whole operator, on the fake clock: the
 * NodeClaim is stamped with its instance's termination time and deleted (as the interruption controller does), the
 * replacement launches at once, and the pods are evicted only once it is initialized, at the deadline that leaves
 * them their grace inside the notice, or at once when the replacement fails to launch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CreateError } from '../../src/cloudprovider/index.js';
import { Resources, type Pod } from '../../src/kube/index.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';
import {
  conditionOf,
  createNodePool,
  createUnschedulablePod,
  eventually,
  must,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

const noticeMs = 120_000;
/** Kubernetes' default grace (30 s) and the drain's margin (10 s) before the instance ends. */
const deadlineAfterNoticeMs = noticeMs - 30_000 - 10_000;

let h: Harness;
afterEach(async () => {
  await h.stop();
});

async function claim(name: string): Promise<StoredNodeClaim | undefined> {
  return (await nodeClaims(h)).find((nc) => nc.metadata.name === name);
}

async function initialized(name: string): Promise<boolean> {
  const nc = await claim(name);
  return nc !== undefined && conditionOf(nc, 'Initialized')?.status === 'True';
}

/** The pod, or undefined once it was evicted (pods go at once when deleted: there is no kubelet). */
async function pod(name: string): Promise<Pod | undefined> {
  return (await h.client.list<Pod>(Resources.pods, { namespace: 'default' })).items.find(
    (p) => p.metadata.name === name && !p.metadata.deletionTimestamp,
  );
}

/** A pod bound to `node` and Running, as the kubelet reports it. */
async function bindRunning(name: string, node: string): Promise<void> {
  await h.client.patch(Resources.pods, { name, namespace: 'default' }, { spec: { nodeName: node } });
  await h.client.patch(
    Resources.pods,
    { name, namespace: 'default' },
    { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
    { subresource: 'status' },
  );
}

/** One pod Running on an initialized node; returns its NodeClaim. */
async function runningWorkload(pool: Parameters<typeof createNodePool>[2] = {}): Promise<StoredNodeClaim> {
  await createNodePool(h, 'default', pool);
  await createUnschedulablePod(h, 'web-1');
  const nc = await eventually(h, 'a launched NodeClaim', async () =>
    (await nodeClaims(h)).find((x) => conditionOf(x, 'Launched')?.status === 'True'),
  );
  const node = await registerNodeFor(h, nc);
  await eventually(h, 'Initialized', () => initialized(nc.metadata.name ?? ''));
  await bindRunning('web-1', node.metadata.name ?? '');
  await eventually(h, 'the pod bound in the cache', async () => (await pod('web-1'))?.spec.nodeName !== undefined);
  return nc;
}

/** What the interruption controller does with a spot warning sent now. */
async function interrupt(nc: StoredNodeClaim): Promise<number> {
  const at = h.clock.now();
  const annotations = { 'tenon.sh/instance-termination-time': new Date(at + noticeMs).toISOString() };
  await h.client.patch(Resources.nodeClaims, { name: nc.metadata.name ?? '' }, { metadata: { annotations } });
  await h.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
  return at;
}

async function replacementOf(old: StoredNodeClaim): Promise<StoredNodeClaim> {
  return eventually(h, 'a replacement NodeClaim', async () =>
    (await nodeClaims(h)).find((x) => x.metadata.name !== old.metadata.name),
  );
}

/** The name of `old`'s replacement, once it has launched. */
async function launchedReplacementOf(old: StoredNodeClaim): Promise<string> {
  const name = (await replacementOf(old)).metadata.name ?? '';
  await eventually(h, 'the replacement launched', async () => {
    const nc = await claim(name);
    return nc !== undefined && conditionOf(nc, 'Launched')?.status === 'True';
  });
  return name;
}

function logMessages(): Array<{ message?: string; reason?: string }> {
  return h.logs.map((l) => JSON.parse(l) as { message?: string; reason?: string });
}

/** When the pod's eviction was recorded (its Evicted Event, stamped with the fake clock). */
async function evictedAt(name: string): Promise<number> {
  const events = await h.client.list<
    { reason?: string; firstTimestamp?: string; involvedObject?: { name?: string } } & Pod
  >(Resources.events, { namespace: 'default' });
  const e = events.items.find((x) => x.reason === 'Evicted' && x.involvedObject?.name === name);
  return Date.parse(must(e, `an Evicted Event for ${name}`).firstTimestamp ?? '');
}

/** Moves the fake clock to `t`, a second at a time, letting the controllers run between steps. */
async function advanceTo(t: number): Promise<void> {
  await eventually(h, `the clock at ${new Date(t).toISOString()}`, () => h.clock.now() >= t, { advanceMs: 1000 });
}

describe('the drain of an interrupted node', () => {
  it('waits for the replacement to be initialized before evicting, then evicts', async () => {
    h = await startHarness();
    const old = await runningWorkload();
    const t0 = await interrupt(old);
    const name = await launchedReplacementOf(old);
    // The replacement registers 20 s after the warning; until it is initialized the pod stays where it was.
    await advanceTo(t0 + 20_000);
    await registerNodeFor(h, must(await claim(name), 'replacement'));
    await eventually(h, 'the replacement initialized', () => initialized(name));
    await eventually(h, 'the pod evicted', async () => (await pod('web-1')) === undefined, { advanceMs: 500 });
    const conditions = must(await claim(name), 'replacement').status?.conditions ?? [];
    const initializedAt = Date.parse(conditions.find((c) => c.type === 'Initialized')?.lastTransitionTime ?? '');
    expect(initializedAt).toBeGreaterThanOrEqual(t0 + 20_000 - 1000);
    expect(await evictedAt('web-1')).toBeGreaterThanOrEqual(initializedAt - 1000);
    const messages = logMessages();
    expect(messages.map((l) => l.message)).toContain('waiting for replacement capacity before draining');
    expect(messages.find((l) => l.message === 'draining interrupted node')?.reason).toBe(
      'its pods have initialized capacity to go to',
    );
    const node = await h.client
      .get<Pod>(Resources.nodes, { name: `node-${old.metadata.name ?? ''}` })
      .catch(() => undefined);
    expect(node === undefined || node.metadata.deletionTimestamp !== undefined).toBe(true);
    // One replacement, not two.
    expect((await nodeClaims(h)).filter((nc) => nc.metadata.name !== old.metadata.name)).toHaveLength(1);
  });

  it('evicts at the deadline that leaves the pods their grace when the replacement is slower than the notice', async () => {
    h = await startHarness();
    const old = await runningWorkload();
    const t0 = await interrupt(old);
    await replacementOf(old);
    await eventually(h, 'the pod evicted', async () => (await pod('web-1')) === undefined, { advanceMs: 1000 });
    const at = await evictedAt('web-1');
    // Event times are whole seconds.
    expect(at).toBeGreaterThanOrEqual(t0 + deadlineAfterNoticeMs - 1000);
    expect(at).toBeLessThanOrEqual(t0 + deadlineAfterNoticeMs + 2000);
    expect(logMessages().find((l) => l.message === 'draining interrupted node')?.reason).toBe(
      'the pods need their termination grace before the instance ends',
    );
  });

  it('evicts at once when the replacement fails to launch (Launched=False)', async () => {
    h = await startHarness();
    const old = await runningWorkload();
    // Every launch fails (a retry right after a first failure would otherwise succeed: a passing error is no failure).
    for (let i = 0; i < 20; i++)
      h.cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    const t0 = await interrupt(old);
    await eventually(h, 'the pod evicted', async () => (await pod('web-1')) === undefined, { advanceMs: 500 });
    expect((await evictedAt('web-1')) - t0).toBeLessThan(30_000);
    expect(logMessages().find((l) => l.message === 'draining interrupted node')?.reason).toBe(
      'the replacement failed to launch',
    );
  });

  it('keeps the initialized replacement from consolidation while the old node still holds the pods', async () => {
    h = await startHarness();
    const old = await runningWorkload({
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '0s',
        // The default 10% budget is already spent by the deleting node: this one lets emptiness act.
        budgets: [{ nodes: '10' }],
      },
    });
    // A second pod no instance type can hold keeps the drain waiting (to the deadline) after the replacement is up.
    await createUnschedulablePod(h, 'huge', { cpu: '100', memory: '1Gi' });
    await bindRunning('huge', `node-${old.metadata.name ?? ''}`);
    await eventually(
      h,
      'the huge pod bound in the cache',
      async () => (await pod('huge'))?.spec.nodeName !== undefined,
    );
    const t0 = await interrupt(old);
    const name = await launchedReplacementOf(old);
    await registerNodeFor(h, must(await claim(name), 'replacement'));
    await eventually(h, 'the replacement initialized', () => initialized(name));
    // Empty and consolidatable at once (consolidateAfter 0s): only web-1's nomination keeps it.
    await advanceTo(t0 + 60_000);
    expect((await claim(name))?.metadata.deletionTimestamp).toBeUndefined();
    expect(await pod('web-1')).toBeDefined();
    expect(logMessages().some((l) => l.message === 'disrupting node(s)')).toBe(false);
  });
});
