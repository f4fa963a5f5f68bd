import { describe, expect, it } from 'vitest';
import { ConditionTypes, Labels } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import {
  controllerSuite,
  expectApplied,
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

/** Registers the Node, then reconciles again as the Node's update would: the pass that judges initialization. */
async function registeredAndReconciled(controller: NodeClaimLifecycleController, name: string): Promise<void> {
  await expectReconciled(env(), controller, name);
  await expectReconciled(env(), controller, name);
}

async function initializationOf(name: string): Promise<ReturnType<typeof getCondition>> {
  const nc = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, name);
  return getCondition(nc.status?.conditions, ConditionTypes.initialized);
}

describe('nodeclaim.lifecycle: initialization', () => {
  it('a Ready Node without startup taints initializes the NodeClaim, which becomes Ready', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1'));
    await expectRegisteredNode(env(), nc);
    await registeredAndReconciled(controller, 'nc-1');

    expect((await initializationOf('nc-1'))?.status).toBe('True');
    const ready = await expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, 'nc-1');
    expect(getCondition(ready.status?.conditions, ConditionTypes.ready)?.status).toBe('True');
    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.metadata.labels?.[Labels.initialized]).toBe('true');
  });

  it('waits for the Node to be Ready, naming its Ready condition', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1'));
    await expectRegisteredNode(env(), nc, { ready: false });
    await registeredAndReconciled(controller, 'nc-1');

    expect(await initializationOf('nc-1')).toMatchObject({ status: 'Unknown', reason: 'NodeNotReady' });
    expect((await initializationOf('nc-1'))?.message).toContain('Ready=False (KubeletNotReady)');
  });

  it('waits while a startup taint is on the Node, and initializes once its owner removes it', async () => {
    const controller = new NodeClaimLifecycleController(env().ctx);
    const nc = await expectLaunched(env(), controller, nodeClaim('nc-1', { startupTaints: [startupTaint] }));
    await expectRegisteredNode(env(), nc);
    await registeredAndReconciled(controller, 'nc-1');
    expect(await initializationOf('nc-1')).toMatchObject({ status: 'Unknown', reason: 'StartupTaintsExist' });

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    await expectApplied<Node>(env(), Resources.nodes, { ...node, spec: { ...node.spec, taints: [] } });
    await expectReconciled(env(), controller, 'nc-1');
    expect((await initializationOf('nc-1'))?.status).toBe('True');
  });
});
