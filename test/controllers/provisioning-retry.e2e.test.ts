/**
 * The provisioner tries pods it left pending again every 10 s, as Karpenter's pod controller does, and that retry
 * goes through the batch window: pods still arriving (a StatefulSet's volumes binding one by one) are solved
 * together instead of each retry launching nodes for the part that has arrived.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  startHarness,
  type Harness,
} from './harness.js';

/** The `provisioning pass` log lines so far: pods considered and NodeClaims created. */
function passes(h: Harness): Array<{ pods: number; nodeClaims: number }> {
  return h.logs
    .map((l) => JSON.parse(l) as { message?: string; pods?: number; nodeClaims?: number })
    .filter((l) => l.message === 'provisioning pass')
    .map((l) => ({ pods: l.pods ?? 0, nodeClaims: l.nodeClaims ?? 0 }));
}

/** Waits until the operator's pod informer holds `name` marked unschedulable, so its batch trigger is in. */
async function seen(h: Harness, name: string): Promise<void> {
  await eventually(
    h,
    `the informer sees ${name}`,
    () =>
      h.operator.context.informers.pods.cache
        .get(`default/${name}`)
        ?.status?.conditions?.some((c) => c.type === 'PodScheduled') === true,
    { advanceMs: 0 },
  );
}

/** Moves the clock `ms` in steps, letting the operator react to each. */
async function settle(h: Harness, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    h.clock.advance(250);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('provisioning retries pending pods through the batch window', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ options: { batchIdleDuration: 2_000, batchMaxDuration: 60_000 } });
  });
  afterEach(async () => {
    await h.stop();
  });

  it('a pod left pending is tried again with no new event', async () => {
    await createNodePool(h);
    await createUnschedulablePod(h, 'lone', { cpu: '1', memory: '1Gi' });
    await eventually(h, 'the first pass', () => passes(h).length === 1);
    // The launch updates the NodePool's status, which triggers passes of its own: let those settle first.
    await settle(h, 5_000);
    const before = passes(h).length;
    await settle(h, 13_000);
    // The pass the retry started may still be on its way on a loaded machine: wait for it without moving the clock.
    await eventually(h, 'the retry pass', () => passes(h).length > before, { advanceMs: 0 });
    expect(passes(h).slice(before)).toContainEqual({ pods: 1, nodeClaims: 0 });
  });

  it('a wave of pods arriving across the retry of a pending pod is launched for in one pass', async () => {
    await createNodePool(h);
    await createUnschedulablePod(h, 'first', { cpu: '1', memory: '1Gi' });
    await eventually(h, 'a NodeClaim for the first pod', async () => (await nodeClaims(h)).length === 1);
    // The first pod stays pending (no node registers here), so a retry comes 10 s after that pass. The wave
    // arrives one pod every 1.5 s (under the 2 s idle window) from 5 s to 14 s after it, across the retry.
    h.clock.advance(5_000);
    for (let i = 0; i < 7; i++) {
      await createUnschedulablePod(h, `wave-${i}`, { cpu: '1', memory: '1Gi' });
      await seen(h, `wave-${i}`);
      h.clock.advance(1_500);
    }
    await eventually(h, 'a pass over the whole wave', () => passes(h).some((p) => p.pods === 8));
    // Every pass that launched: the first pod's, then the whole wave's, and none for a part of the wave.
    expect(passes(h).filter((p) => p.nodeClaims > 0)).toEqual([
      { pods: 1, nodeClaims: 1 },
      { pods: 8, nodeClaims: expect.any(Number) as number },
    ]);
  });
});
