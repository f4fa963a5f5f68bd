import { describe, expect, it } from 'vitest';
import { Finalizers } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import {
  eventsAbout,
  expectApplied,
  expectCached,
  expectExists,
  expectNotFound,
  expectRegisteredNode,
  lifecycleSuite,
  nodeClaim,
} from '../../../../test/controllers/nodeclaim-lifecycle.js';

const { env, launch, reconcile, claim } = lifecycleSuite();

/** Deletes the NodeClaim `name` as a user or disruption would, and waits until the controller's cache shows it. */
async function deleted(name: string): Promise<StoredNodeClaim> {
  await env().client.delete(Resources.nodeClaims, { name });
  const deleting = await claim(name);
  await expectCached(env(), Resources.nodeClaims, deleting);
  return deleting;
}

/** A NodeClaim launched and registered, then deleted. */
async function deletedRegisteredClaim(): Promise<StoredNodeClaim> {
  await expectRegisteredNode(env(), await launch(nodeClaim('nc-1')));
  await reconcile('nc-1');
  return deleted('nc-1');
}

describe('nodeclaim.lifecycle: termination (finalize)', () => {
  it('deletes the Node first and keeps the instance and the NodeClaim while the Node drains', async () => {
    await deletedRegisteredClaim();
    await reconcile('nc-1');

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.metadata.deletionTimestamp).toBeDefined();
    expect(env().cloud.callsOf('delete')).toHaveLength(0);
    expect((await claim('nc-1')).metadata.finalizers).toContain(Finalizers.termination);
  });

  it('once the Node is gone, terminates the instance and releases the NodeClaim', async () => {
    const nc = await deletedRegisteredClaim();
    await reconcile('nc-1');
    // node.termination drained the Node and released its finalizer.
    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    await expectApplied<Node>(env(), Resources.nodes, { ...node, metadata: { ...node.metadata, finalizers: [] } });
    await reconcile('nc-1');

    expect(env().cloud.callsOf('delete')).toHaveLength(1);
    expect(env().cloud.instances.has(nc.status?.providerID ?? '')).toBe(false);
    expect(await expectNotFound(env(), Resources.nodeClaims, 'nc-1')).toBe(true);
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({
        reason: 'InstanceTerminating',
        message: `terminating instance ${nc.status?.providerID}`,
      }),
    );
  });

  it('releases a NodeClaim that never launched without calling the cloud', async () => {
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    await deleted('nc-1');
    await reconcile('nc-1');

    expect(env().cloud.callsOf('delete')).toHaveLength(0);
    expect(await expectNotFound(env(), Resources.nodeClaims, 'nc-1')).toBe(true);
  });
});
