import { describe, expect, it } from 'vitest';
import { Finalizers } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import {
  controllerSuite,
  eventsAbout,
  expectApplied,
  expectCached,
  expectExists,
  expectLaunched,
  expectNotFound,
  expectReconciled,
  expectRegisteredNode,
  nodeClaim,
} from '../../../../test/controllers/expectations.js';
import { NodeClaimLifecycleController } from './controller.js';

const env = controllerSuite();

/** A NodeClaim launched and registered, then deleted by a user or disruption. */
async function deletedRegisteredClaim(controller: NodeClaimLifecycleController): Promise<StoredNodeClaim> {
  const nc = await expectLaunched(env(), controller, nodeClaim('nc-1'));
  await expectRegisteredNode(env(), nc);
  await expectReconciled(env(), controller, 'nc-1');
  await env().client.delete(Resources.nodeClaims, { name: 'nc-1' });
  const deleting = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
  await expectCached(env(), Resources.nodeClaims, deleting);
  return deleting;
}

describe('nodeclaim.lifecycle: termination (finalize)', () => {
  it('deletes the Node first and keeps the instance and the NodeClaim while the Node drains', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    await deletedRegisteredClaim(controller);
    await expectReconciled(env(), controller, 'nc-1');

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.metadata.deletionTimestamp).toBeDefined();
    expect(env().cloud.callsOf('delete')).toHaveLength(0);
    const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(nc.metadata.finalizers).toContain(Finalizers.termination);
  });

  it('once the Node is gone, terminates the instance and releases the NodeClaim', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await deletedRegisteredClaim(controller);
    await expectReconciled(env(), controller, 'nc-1');
    // node.termination drained the Node and released its finalizer.
    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    await expectApplied<Node>(env(), Resources.nodes, { ...node, metadata: { ...node.metadata, finalizers: [] } });
    await expectReconciled(env(), controller, 'nc-1');

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
    const controller = new NodeClaimLifecycleController(env().ctx);
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    await env().client.delete(Resources.nodeClaims, { name: 'nc-1' });
    await expectCached(env(), Resources.nodeClaims, await expectExists(env(), Resources.nodeClaims, 'nc-1'));
    await expectReconciled(env(), controller, 'nc-1');

    expect(env().cloud.callsOf('delete')).toHaveLength(0);
    expect(await expectNotFound(env(), Resources.nodeClaims, 'nc-1')).toBe(true);
  });
});
