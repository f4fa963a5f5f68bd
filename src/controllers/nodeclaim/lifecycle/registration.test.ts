import { describe, expect, it } from 'vitest';
import { ConditionTypes, Finalizers, Labels, UnregisteredTaint } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
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
import { getCondition } from '../../conditions.js';
import { NodeClaimLifecycleController } from './controller.js';

const env = controllerSuite();
const startupTaint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };

describe('nodeclaim.lifecycle: registration', () => {
  it('adopts the Node with its providerID: unregistered taint removed, labels synced, owned and finalized', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(
      env(),
      controller,
      nodeClaim('nc-1', { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] }),
    );
    await expectRegisteredNode(env(), nc);
    await expectReconciled(env(), controller, 'nc-1');

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.spec?.taints).not.toContainEqual(expect.objectContaining({ key: UnregisteredTaint.key }));
    expect(node.spec?.taints).toContainEqual({ key: 'team', value: 'a', effect: 'NoSchedule' });
    expect(node.metadata.labels).toMatchObject({
      [Labels.nodePool]: 'default',
      [Labels.instanceType]: 'small',
      [Labels.registered]: 'true',
    });
    expect(node.metadata.ownerReferences).toContainEqual(expect.objectContaining({ kind: 'NodeClaim', name: 'nc-1' }));
    expect(node.metadata.finalizers).toContain(Finalizers.termination);

    const registered = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(registered.status?.conditions, ConditionTypes.registered)?.status).toBe('True');
    expect(registered.status?.nodeName).toBe('node-nc-1');
  });

  it('waits, saying why, while no Node carries the providerID', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    await expectLaunched(env(), controller, nodeClaim('nc-1'));
    await expectReconciled(env(), controller, 'nc-1');

    const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(nc.status?.conditions, ConditionTypes.registered)).toMatchObject({
      status: 'Unknown',
      reason: 'NodeNotFound',
    });
    expect(getCondition(nc.status?.conditions, ConditionTypes.ready)?.status).toBe('Unknown');
  });

  it('leaves a startup taint alone that its owner already removed before adoption (S1)', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1', { startupTaints: [startupTaint] }));
    // The agent's DaemonSet removed its taint between registration and adoption.
    await expectRegisteredNode(env(), nc, { taints: [UnregisteredTaint] });
    await expectReconciled(env(), controller, 'nc-1');

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.spec?.taints ?? []).toEqual([]);
  });

  it('adopts a Node whose userData replaced the taint list, and says so in an Event', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1'));
    await expectRegisteredNode(env(), nc, { taints: [] });
    await expectReconciled(env(), controller, 'nc-1');

    const registered = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(registered.status?.conditions, ConditionTypes.registered)?.status).toBe('True');
    expect(await eventsAbout(env(), 'nc-1')).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: 'UnregisteredTaintMissing' }),
    );
  });
});
