import { describe, expect, it } from 'vitest';
import { ConditionTypes, Labels } from '../../../api/index.js';
import { Resources, type Node } from '../../../kube/index.js';
import {
  expectApplied,
  expectExists,
  expectRegisteredNode,
  lifecycleSuite,
  nodeClaim,
} from '../../../../test/controllers/nodeclaim-lifecycle.js';

const { env, launch, reconcile, condition } = lifecycleSuite();
const startupTaint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };

/** Registers the Node, then reconciles again as the Node's update would: the pass that judges initialization. */
async function registeredAndReconciled(name: string): Promise<void> {
  await reconcile(name);
  await reconcile(name);
}

describe('nodeclaim.lifecycle: initialization', () => {
  it('a Ready Node without startup taints initializes the NodeClaim, which becomes Ready', async () => {
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1')));
    await registeredAndReconciled('nc-1');

    expect((await condition('nc-1', ConditionTypes.initialized))?.status).toBe('True');
    expect((await condition('nc-1', ConditionTypes.ready))?.status).toBe('True');
    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    expect(node.metadata.labels?.[Labels.initialized]).toBe('true');
  });

  it('waits for the Node to be Ready, naming its Ready condition', async () => {
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1')), { ready: false });
    await registeredAndReconciled('nc-1');

    const initialized = await condition('nc-1', ConditionTypes.initialized);
    expect(initialized).toMatchObject({ status: 'Unknown', reason: 'NodeNotReady' });
    expect(initialized?.message).toContain('Ready=False (KubeletNotReady)');
  });

  it('waits while a startup taint is on the Node, and initializes once its owner removes it', async () => {
    await expectRegisteredNode(env(), await launch(nodeClaim('nc-1', { startupTaints: [startupTaint] })));
    await reconcile('nc-1');
    expect(await condition('nc-1', ConditionTypes.initialized)).toMatchObject({
      status: 'Unknown',
      reason: 'StartupTaintsExist',
    });

    const node = await expectExists<Node>(env(), Resources.nodes, 'node-nc-1');
    await expectApplied<Node>(env(), Resources.nodes, { ...node, spec: { ...node.spec, taints: [] } });
    await reconcile('nc-1');
    expect((await condition('nc-1', ConditionTypes.initialized))?.status).toBe('True');
  });
});
