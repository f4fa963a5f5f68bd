/** The disruption controllers, wired together: marking, decision passes and the orchestration queue. */
import type { Controller } from '../index.js';
import type { ControllerContext } from '../context.js';
import { DisruptionController } from './controller.js';
import { NodeClaimDisruptionController } from './marking/controller.js';
import { OrchestrationQueue } from './orchestration/queue.js';

/** The disruption controllers for the operator's flat list; `orchestration` is shared with node.health. */
export function newDisruptionControllers(ctx: ControllerContext, orchestration: OrchestrationQueue): Controller[] {
  return [new NodeClaimDisruptionController(ctx), new DisruptionController(ctx, orchestration), orchestration];
}
