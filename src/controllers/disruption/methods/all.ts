/**
 * The disruption methods in the order they are tried (Karpenter v1: static drift and drift, emptiness, multi-node,
 * single-node).
 */
import { Drift } from './drift.js';
import { Emptiness } from './emptiness.js';
import type { Method } from './method.js';
import { MultiNodeConsolidation } from './multi-node-consolidation.js';
import { SingleNodeConsolidation } from './single-node-consolidation.js';
import { StaticDrift } from './static-drift.js';

/** The methods in the order they are tried. */
export function defaultMethods(): Method[] {
  return [new StaticDrift(), new Drift(), new Emptiness(), new MultiNodeConsolidation(), new SingleNodeConsolidation()];
}
