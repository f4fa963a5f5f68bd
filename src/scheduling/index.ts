/** The scheduling engine: pure placement of pending pods on nodes and new NodeClaims, cheapest first. */
export type * from './model.js';
export { solve } from './solver/solve.js';
export { MaxInstanceTypes } from './solver/result.js';
export { Requirement } from './requirements/requirement.js';
export { Requirements } from './requirements/requirements.js';
export { WellKnownLabels, NormalizedLabels, isRestrictedLabel, normalizeLabelKey } from './requirements/well-known.js';
export {
  parseMilli,
  parseUnits,
  isQuantity,
  resourceValue,
  formatResource,
  isMilliResource,
} from './resources/quantity.js';
export {
  type Resources,
  fromResourceList,
  toResourceList,
  addResources,
  subtractResources,
  maxResources,
  fitsIn,
} from './resources/resources.js';
export { podRequests } from './resources/pod-requests.js';
export { amount, amounts, decimal } from './resources/amounts.js';
export { tolerates, untoleratedTaint, effectiveTaints, formatTaint } from './taints.js';
export { hostPortsOf, conflictingPort, type HostPort } from './host-ports.js';
export { podVolumes, type PodVolumes } from './volumes.js';
export { prepareInstanceType, cheapestOffering, offeringAllowed, type InstanceTypeInfo } from './instance-types.js';
// Checking and bounds (branch schedbench): the independent placement checker and the cost lower bound.
export {
  checkPlacement,
  summarizeViolations,
  type CheckFamily,
  type CheckOptions,
  type DomainMode,
  type Violation,
} from './check/index.js';
export {
  lowerBound,
  writeLp,
  type LowerBound,
  type LowerBoundOptions,
  type LpModel,
  type LpResult,
  type LpSolve,
} from './lower-bound/index.js';

// --- solver side (branch scheduling): disruption's removal simulation ---
export { RemovalSimulator, simulateRemoval, type RemovalResult } from './solver/removal.js';
export { binOrder, poolUsage, preparedInstanceType, usageWithout } from './solver/context.js';
export { SolveCache } from './solve-cache.js';
