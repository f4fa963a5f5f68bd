/** The independent placement checker. */
export { checkPlacement, summarizeViolations, type CheckOptions } from './check.js';
export type { DomainMode } from './karpenter-domains.js';
export type { CheckFamily, Violation } from './violation.js';
