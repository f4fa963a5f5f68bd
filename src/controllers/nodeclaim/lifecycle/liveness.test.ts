import { describe, expect, it } from 'vitest';
import { CreateError } from '../../../cloudprovider/index.js';
import { Resources } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import {
  controllerSuite,
  eventsAbout,
  expectExists,
  expectLaunched,
  expectReconciled,
  expectRegisteredNode,
  nodeClaim,
} from '../../../../test/controllers/expectations.js';
import { NodeClaimLifecycleController } from './controller.js';

const env = controllerSuite();
const minute = 60_000;

async function deleting(name: string): Promise<boolean> {
  const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, name);
  return nc.metadata.deletionTimestamp !== undefined;
}

describe('nodeclaim.lifecycle: liveness', () => {
  it('deletes a launched NodeClaim whose Node has not registered after 15 minutes, with an Event saying so', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    await expectLaunched(env(), controller, nodeClaim('nc-1'));

    env().clock.advance(15 * minute - 1000);
    expect(await expectReconciled(env(), controller, 'nc-1')).toEqual({ requeueAfter: 1000 });
    expect(await deleting('nc-1')).toBe(false);

    env().clock.advance(1000);
    await expectReconciled(env(), controller, 'nc-1');
    expect(await deleting('nc-1')).toBe(true);
    const [event] = (await eventsAbout(env(), 'nc-1')).filter((e) => e.reason === 'RegistrationTimeout');
    expect(event?.message).toMatch(/within the registration timeout \(15m\); last observed: NodeNotFound/);
  });

  it('never deletes a NodeClaim that registered, however long initialization takes', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1'));
    await expectRegisteredNode(env(), nc, { ready: false });
    await expectReconciled(env(), controller, 'nc-1');

    env().clock.advance(60 * minute);
    await expectReconciled(env(), controller, 'nc-1');
    expect(await deleting('nc-1')).toBe(false);
  });

  it('deletes a NodeClaim that could not launch within 5 minutes, naming the last launch error', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    for (let i = 0; i < 3; i++)
      env().cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    await expectLaunched(env(), controller, nodeClaim('nc-1'));

    env().clock.advance(5 * minute);
    await expectReconciled(env(), controller, 'nc-1');
    expect(await deleting('nc-1')).toBe(true);
    const [event] = (await eventsAbout(env(), 'nc-1')).filter((e) => e.reason === 'LaunchTimeout');
    expect(event?.message).toMatch(/not launched within the launch timeout \(5m\); last observed: .*lt-1 not found/);
  });
});
