import { describe, expect, it } from 'vitest';
import { CreateError } from '../../../cloudprovider/index.js';
import {
  eventsAbout,
  expectRegisteredNode,
  lifecycleSuite,
  nodeClaim,
} from '../../../../test/controllers/nodeclaim-lifecycle.js';

const { env, launch, reconcile, claim } = lifecycleSuite();
const minute = 60_000;
const deleting = async (name: string): Promise<boolean> => (await claim(name)).metadata.deletionTimestamp !== undefined;

describe('nodeclaim.lifecycle: liveness', () => {
  it('deletes a launched NodeClaim whose Node has not registered after 15 minutes, with an Event saying so', async () => {
    await launch(nodeClaim('nc-1'));

    env().clock.advance(15 * minute - 1000);
    expect(await reconcile('nc-1')).toEqual({ requeueAfter: 1000 });
    expect(await deleting('nc-1')).toBe(false);

    env().clock.advance(1000);
    await reconcile('nc-1');
    expect(await deleting('nc-1')).toBe(true);
    const [event] = (await eventsAbout(env(), 'nc-1')).filter((e) => e.reason === 'RegistrationTimeout');
    expect(event?.message).toMatch(/within the registration timeout \(15m\); last observed: NodeNotFound/);
  });

  it('never deletes a NodeClaim that registered, however long initialization takes', async () => {
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1')), { ready: false });
    await reconcile('nc-1');

    env().clock.advance(60 * minute);
    await reconcile('nc-1');
    expect(await deleting('nc-1')).toBe(false);
  });

  it('deletes a NodeClaim that could not launch within 5 minutes, naming the last launch error', async () => {
    for (let i = 0; i < 3; i++)
      env().cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    await launch(nodeClaim('nc-1'));

    env().clock.advance(5 * minute);
    await reconcile('nc-1');
    expect(await deleting('nc-1')).toBe(true);
    const [event] = (await eventsAbout(env(), 'nc-1')).filter((e) => e.reason === 'LaunchTimeout');
    expect(event?.message).toMatch(/not launched within the launch timeout \(5m\); last observed: .*lt-1 not found/);
  });
});
