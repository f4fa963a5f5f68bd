/**
 * SCENARIOS.md S1: the cloud controller manager removes `node.cloudprovider.kubernetes.io/uninitialized` while
 * Tenon registers the Node. Over 100 seeded interleavings the taint is never put back once removed and every
 * NodeClaim initializes. In half of them the CCM acts as soon as the Node exists, racing Tenon's registration
 * write; in the other half it waits for the registration and then a seeded delay, landing among Tenon's later
 * writes. Waiting on the Node's own updates, not on wall-clock time alone, keeps both orders however busy the
 * machine is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Resources, updateWithRetry, watchResource, type Node } from '../../src/kube/index.js';
import {
  conditionOf,
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

const uninitialized = 'node.cloudprovider.kubernetes.io/uninitialized';

/** A small seeded PRNG (mulberry32): each interleaving is reproducible from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What one Node went through, by resourceVersion order as the watch delivered it. */
interface History {
  versions: Array<{ rv: number; tainted: boolean; unregistered: boolean }>;
  removedAt?: number;
}

describe('S1: the CCM races Tenon on the uninitialized taint', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('over 100 seeded interleavings the taint is never put back and every NodeClaim reaches Initialized=True', async () => {
    h = await startHarness({ options: { batchIdleDuration: 10, batchMaxDuration: 100 } });
    await createNodePool(h);
    const count = 100;
    await Promise.all(
      Array.from({ length: count }, (_, i) => createUnschedulablePod(h, `s1-${i}`, { cpu: '7', memory: '1Gi' })),
    );
    const claims = await eventually(
      h,
      `${count} launched NodeClaims`,
      async () => {
        const all = (await nodeClaims(h)).filter((x) => x.status?.providerID);
        return all.length === count && all;
      },
      { timeoutMs: 60_000 },
    );

    const histories = new Map<string, History>();
    const abort = new AbortController();
    const waiters = new Map<string, Array<() => void>>();
    void watchResource<Node>(h.client, Resources.nodes, { signal: abort.signal }, (e) => {
      // A bookmark carries only a resourceVersion, no Node; a slow run gets one.
      if (e.type === 'BOOKMARK') return;
      const name = e.object.metadata.name ?? '';
      const hist = histories.get(name) ?? { versions: [] };
      const taints = e.object.spec?.taints ?? [];
      hist.versions.push({
        rv: Number(e.object.metadata.resourceVersion),
        tainted: taints.some((t) => t.key === uninitialized),
        unregistered: taints.some((t) => t.key === 'karpenter.sh/unregistered'),
      });
      histories.set(name, hist);
      for (const w of waiters.get(name) ?? []) w();
    }).catch(() => undefined);

    /** Resolves once the watch has delivered a version of the Node that passes `test`. */
    const once = (name: string, test: (hist: History) => boolean): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          const hist = histories.get(name);
          if (hist && test(hist)) resolve();
        };
        waiters.set(name, [...(waiters.get(name) ?? []), check]);
        check();
      });

    const ccm = async (name: string, seed: number): Promise<void> => {
      const rand = prng(seed);
      if (seed % 2 === 0) {
        // As soon as the Node exists, with a short seeded delay: a race with Tenon's registration write.
        await once(name, (hist) => hist.versions.length > 0);
        await new Promise((r) => setTimeout(r, Math.floor(rand() * 20)));
      } else {
        // After Tenon registered the Node, among its later writes.
        await once(name, (hist) => hist.versions.some((v) => !v.unregistered));
        await new Promise((r) => setTimeout(r, Math.floor(rand() * rand() * 1500)));
      }
      const stored = await updateWithRetry<Node>({
        client: h.client,
        resource: Resources.nodes,
        ref: { name },
        attempts: 50,
        mutate: (fresh) => {
          if (!fresh.spec?.taints?.some((t) => t.key === uninitialized)) return undefined;
          fresh.spec.taints = fresh.spec.taints.filter((t) => t.key !== uninitialized);
          return fresh;
        },
      });
      const hist = histories.get(name) ?? { versions: [] };
      hist.removedAt = Number(stored.metadata.resourceVersion);
      histories.set(name, hist);
    };

    await Promise.all(
      claims.map(async (nc, seed) => {
        const name = `node-${nc.metadata.name}`;
        const race = ccm(name, seed);
        await registerNodeFor(h, nc, {
          taints: [
            { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
            { key: uninitialized, effect: 'NoSchedule', value: 'true' },
          ],
        });
        await race;
      }),
    );

    await eventually(
      h,
      'every NodeClaim Initialized',
      async () =>
        (await nodeClaims(h)).filter((x) => conditionOf(x, 'Initialized')?.status === 'True').length === count,
      { timeoutMs: 60_000 },
    );
    await new Promise((r) => setTimeout(r, 200));
    abort.abort();

    expect(histories.size).toBe(count);
    for (const [name, hist] of histories) {
      expect(hist.removedAt, `${name}: the CCM removed the taint`).toBeDefined();
      const resurrected = hist.versions.filter((v) => v.rv > (hist.removedAt ?? Infinity) && v.tainted);
      expect(resurrected, `${name}: uninitialized taint put back after the CCM removed it`).toEqual([]);
    }
    // The interleavings must really race: in a fair share of the first half the CCM acted before Tenon's
    // registration write (the second half acts after it by construction).
    const raced = [...histories.values()].filter((hist) => {
      const registeredAt = hist.versions.find((v) => !v.unregistered)?.rv ?? Infinity;
      return (hist.removedAt ?? Infinity) < registeredAt;
    }).length;
    // How often the CCM wins depends on the machine's load, so the bound only demands a few.
    expect(raced).toBeGreaterThanOrEqual(5);
    const nodes = (await h.client.list<Node>(Resources.nodes)).items;
    expect(
      nodes.filter((n) =>
        n.spec?.taints?.some((t) => t.key === uninitialized || t.key === 'karpenter.sh/unregistered'),
      ),
    ).toEqual([]);
  }, 120_000);
});
