/**
 * The nodeclaim.lifecycle controller's shared suite (beside-code tests in src/controllers/nodeclaim/lifecycle):
 * a fresh cluster and controller per test, and sentences over them (launch, reconcile, read a condition).
 */
import { beforeEach } from 'vitest';
import { NodeClaimLifecycleController } from '../../src/controllers/nodeclaim/lifecycle/controller.js';
import { getCondition, type ConditionLike } from '../../src/controllers/conditions.js';
import { Resources, type ReconcileResult } from '../../src/kube/index.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';
import { controllerSuite, expectExists, expectLaunched, expectReconciled, type ControllerEnv } from './expectations.js';

export {
  eventsAbout,
  expectApplied,
  expectCached,
  expectExists,
  expectNotFound,
  expectRegisteredNode,
  nodeClaim,
} from './expectations.js';

/** A test's cluster with the lifecycle controller on it. */
export interface LifecycleEnv extends ControllerEnv {
  controller: NodeClaimLifecycleController;
}

/** What the tests of one file share: the environment and sentences bound to it. */
export interface LifecycleSuite {
  env: () => LifecycleEnv;
  /** One reconcile of the NodeClaim `name`, once the informers show what it wrote. */
  reconcile(name: string): Promise<ReconcileResult | void>;
  /** Applies the NodeClaim and reconciles it once: the launched NodeClaim as stored. */
  launch(claim: StoredNodeClaim): Promise<StoredNodeClaim>;
  /** The stored NodeClaim `name`. */
  claim(name: string): Promise<StoredNodeClaim>;
  /** The stored NodeClaim's condition of `type`. */
  condition(name: string, type: string): Promise<ConditionLike | undefined>;
}

/** A fresh cluster and nodeclaim.lifecycle controller for every test of the file. */
export function lifecycleSuite(): LifecycleSuite {
  const cluster = controllerSuite();
  let controller: NodeClaimLifecycleController | undefined;
  beforeEach(() => {
    controller = new NodeClaimLifecycleController(cluster().ctx);
  });
  const env = (): LifecycleEnv => {
    if (!controller) throw new Error('lifecycleSuite: used outside a test');
    return { ...cluster(), controller };
  };
  const claim = (name: string): Promise<StoredNodeClaim> =>
    expectExists<StoredNodeClaim>(env(), Resources.nodeClaims, name);
  return {
    env,
    reconcile: (name) => expectReconciled(env(), env().controller, name),
    launch: (nc) => expectLaunched(env(), env().controller, nc),
    claim,
    condition: async (name, type) => getCondition((await claim(name)).status?.conditions, type),
  };
}
