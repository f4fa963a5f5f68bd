import { describe, expect, it } from 'vitest';
import { ConditionTypes, Labels } from '../../../api/index.js';
import { CreateError, InsufficientCapacityError } from '../../../cloudprovider/index.js';
import { Resources } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import {
  controllerSuite,
  eventsAbout,
  expectApplied,
  expectExists,
  expectReconciled,
  nodeClaim,
} from '../../../../test/controllers/expectations.js';
import { getCondition } from '../../conditions.js';
import { NodeClaimLifecycleController } from './controller.js';

const env = controllerSuite();

describe('nodeclaim.lifecycle: launch', () => {
  it('launches the cheapest fitting instance and records it on the NodeClaim', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    await expectReconciled(env(), controller, 'nc-1');

    const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(nc.status?.conditions, ConditionTypes.launched)).toMatchObject({ status: 'True' });
    expect(nc.status?.providerID).toBeDefined();
    expect(env().cloud.instances.has(nc.status?.providerID ?? '')).toBe(true);
    expect(nc.metadata.labels).toMatchObject({
      [Labels.instanceType]: 'small',
      [Labels.zone]: 'test-zone-a',
      [Labels.capacityType]: 'spot',
      [Labels.nodePool]: 'default',
    });
    expect(nc.status?.capacity?.cpu).toBe('2');
  });

  it('launches once: a later pass does not create a second instance', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    await expectReconciled(env(), controller, 'nc-1');
    await expectReconciled(env(), controller, 'nc-1');
    expect(env().cloud.callsOf('create')).toHaveLength(1);
  });

  it('a failed launch sets Launched=False with the cloud error as reason, records an Event and retries', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    env().cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    const result = await expectReconciled(env(), controller, 'nc-1');

    const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(nc.status?.conditions, ConditionTypes.launched)).toMatchObject({
      status: 'False',
      reason: 'LaunchTemplateNotFound',
      message: 'launch template lt-1 not found',
    });
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'LaunchFailed' }),
    );
    expect(result).toEqual({ requeueAfter: 10_000 });

    await expectReconciled(env(), controller, 'nc-1');
    const retried = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(retried.status?.conditions, ConditionTypes.launched)?.status).toBe('True');
  });

  it('insufficient capacity deletes the NodeClaim, so provisioning picks another offering', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    env().cloud.injectError('create', new InsufficientCapacityError('no capacity for small in test-zone-a', []));
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    await expectReconciled(env(), controller, 'nc-1');

    const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(nc.metadata.deletionTimestamp).toBeDefined();
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'InsufficientCapacityError' }),
    );
  });
});
