import { describe, expect, it } from 'vitest';
import { ConditionTypes, Finalizers, Labels, UnregisteredTaint } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
import {
  eventsAbout,
  expectExists,
  expectRegisteredNode,
  lifecycleSuite,
  nodeClaim,
} from '../../../../test/controllers/nodeclaim-lifecycle.js';

const { env, launch, reconcile, claim, condition } = lifecycleSuite();
const startupTaint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };
const nodeOf = (name: string): Promise<Node> => expectExists<Node>(env(), Resources.nodes, `node-${name}`);

describe('nodeclaim.lifecycle: registration', () => {
  it('adopts the Node with its providerID: unregistered taint removed, labels synced, owned and finalized', async () => {
    const team = { key: 'team', value: 'a', effect: 'NoSchedule' as const };
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1', { taints: [team] })));
    await reconcile('nc-1');

    const node = await nodeOf('nc-1');
    expect(node.spec?.taints).not.toContainEqual(expect.objectContaining({ key: UnregisteredTaint.key }));
    expect(node.spec?.taints).toContainEqual(team);
    expect(node.metadata.labels).toMatchObject({
      [Labels.nodePool]: 'default',
      [Labels.instanceType]: 'small',
      [Labels.registered]: 'true',
    });
    expect(node.metadata.ownerReferences).toContainEqual(expect.objectContaining({ kind: 'NodeClaim', name: 'nc-1' }));
    expect(node.metadata.finalizers).toContain(Finalizers.termination);
    expect((await condition('nc-1', ConditionTypes.registered))?.status).toBe('True');
    expect((await claim('nc-1')).status?.nodeName).toBe('node-nc-1');
  });

  it('waits, saying why, while no Node carries the providerID', async () => {
    await launch(nodeClaim('nc-1'));
    await reconcile('nc-1');

    expect(await condition('nc-1', ConditionTypes.registered)).toMatchObject({
      status: 'Unknown',
      reason: 'NodeNotFound',
    });
    expect((await condition('nc-1', ConditionTypes.ready))?.status).toBe('Unknown');
  });

  it('leaves a startup taint alone that its owner already removed before adoption (S1)', async () => {
    const nc = await launch(nodeClaim('nc-1', { startupTaints: [startupTaint] }));
    // The agent's DaemonSet removed its taint between registration and adoption.
    await expectRegisteredNode(env(), nc, { taints: [UnregisteredTaint] });
    await reconcile('nc-1');

    expect((await nodeOf('nc-1')).spec?.taints ?? []).toEqual([]);
  });

  it('adopts a Node whose userData replaced the taint list, and says so in an Event', async () => {
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1')), { taints: [] });
    await reconcile('nc-1');

    expect((await condition('nc-1', ConditionTypes.registered))?.status).toBe('True');
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'UnregisteredTaintMissing' }),
    );
  });
});
