import type { Reconciler, WorkQueue } from '../kube/index.js';
import type { ControllerContext } from './context.js';
import { newDisruptionControllers } from './disruption/index.js';
import { OrchestrationQueue } from './disruption/orchestration/queue.js';
import { NodeClaimExpirationController } from './nodeclaim/expiration/controller.js';
import { GarbageCollectionController, garbageCollectionKey } from './nodeclaim/garbagecollection/controller.js';
import { NodeClaimLifecycleController } from './nodeclaim/lifecycle/controller.js';
import { NodeHealthController } from './node/health/controller.js';
import { NodeTerminationController } from './node/termination/controller.js';
import { NodePoolStatusController } from './nodepool/status/controller.js';
import { StaticNodePoolController } from './nodepool/static/controller.js';
import { NodeOverlayController } from './nodeoverlay/controller.js';
import { CapacityBufferController } from './capacitybuffer/controller.js';
import { ProvisioningController } from './provisioning/controller.js';

/** A controller: a reconciler with its own queue. */
export interface Controller extends Reconciler {
  readonly queue: WorkQueue;
  /** Cancels the controller's own timers, if it keeps any. */
  stop?(): void;
}

/** Every controller, in one flat list (STYLE.md), wired to the shared informers. */
export function newControllers(ctx: ControllerContext): Controller[] {
  const gc = new GarbageCollectionController(ctx);
  gc.queue.add(garbageCollectionKey);
  // Node repair of a static NodePool stages its replacement through the disruption orchestration queue.
  const orchestration = new OrchestrationQueue(ctx);
  return [
    new ProvisioningController(ctx),
    new NodeClaimLifecycleController(ctx),
    new NodeTerminationController(ctx),
    new NodeHealthController(ctx, orchestration),
    new NodePoolStatusController(ctx),
    new StaticNodePoolController(ctx),
    new NodeOverlayController(ctx),
    new CapacityBufferController(ctx),
    gc,
    new NodeClaimExpirationController(ctx),
    ...newDisruptionControllers(ctx, orchestration),
  ];
}

export type { ControllerContext } from './context.js';
