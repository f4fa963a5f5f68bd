/**
 * The placement checker: an independent oracle of the solver's results. It and the lower bound share only the plain
 * rules of scheduling/rules (the oracle's own quantity arithmetic, labels and taints, Karpenter's topology domains);
 * neither imports the solver's code, so a solver bug cannot hide behind the code that judges it.
 */
export { checkPlacement, summarizeViolations, type CheckOptions } from './check.js';
export type { DomainMode } from '../rules/karpenter-domains.js';
export type { CheckFamily, Violation } from './violation.js';
