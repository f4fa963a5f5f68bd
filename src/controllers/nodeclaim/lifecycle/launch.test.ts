import { describe, expect, it } from 'vitest';
import { ConditionTypes, Labels } from '../../../api/index.js';
import { CreateError, InsufficientCapacityError } from '../../../cloudprovider/index.js';
import { Resources } from '../../../kube/index.js';
import {
  eventsAbout,
  expectApplied,
  lifecycleSuite,
  nodeClaim,
} from '../../../../test/controllers/nodeclaim-lifecycle.js';

const { env, launch, reconcile, claim, condition } = lifecycleSuite();

describe('nodeclaim.lifecycle: launch', () => {
  it('launches the cheapest fitting instance and records it on the NodeClaim', async () => {
    const nc = await launch(nodeClaim('nc-1'));

    expect(await condition('nc-1', ConditionTypes.launched)).toMatchObject({ status: 'True' });
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
    await launch(nodeClaim('nc-1'));
    await reconcile('nc-1');
    expect(env().cloud.callsOf('create')).toHaveLength(1);
  });

  it('a failed launch sets Launched=False with the cloud error as reason, records an Event and retries', async () => {
    env().cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    await expectApplied(env(), Resources.nodeClaims, nodeClaim('nc-1'));
    expect(await reconcile('nc-1')).toEqual({ requeueAfter: 10_000 });

    expect(await condition('nc-1', ConditionTypes.launched)).toMatchObject({
      status: 'False',
      reason: 'LaunchTemplateNotFound',
      message: 'launch template lt-1 not found',
    });
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'LaunchFailed' }),
    );
    await reconcile('nc-1');
    expect((await condition('nc-1', ConditionTypes.launched))?.status).toBe('True');
  });

  it('insufficient capacity deletes the NodeClaim, so provisioning picks another offering', async () => {
    env().cloud.injectError('create', new InsufficientCapacityError('no capacity for small in test-zone-a', []));
    await launch(nodeClaim('nc-1'));

    expect((await claim('nc-1')).metadata.deletionTimestamp).toBeDefined();
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'InsufficientCapacityError' }),
    );
  });
});
