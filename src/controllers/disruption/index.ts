/** The disruption controllers, wired together: marking, decision passes and the orchestration queue. */
import type { Controller } from '../index.js';
import type { ControllerContext } from '../context.js';
import { DisruptionController } from './controller.js';
import { NodeClaimDisruptionController } from './marking/controller.js';
import { OrchestrationQueue } from './orchestration/queue.js';

/** The disruption controllers for the operator's flat list. */
export function newDisruptionControllers(ctx: ControllerContext): Controller[] {
  const orchestration = new OrchestrationQueue(ctx);
  return [new NodeClaimDisruptionController(ctx), new DisruptionController(ctx, orchestration), orchestration];
}
