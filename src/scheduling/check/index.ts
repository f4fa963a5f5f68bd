/** The independent placement checker. */
export { checkPlacement, summarizeViolations } from './check.js';
export type { CheckFamily, Violation } from './violation.js';
