/** The cost lower bound (configuration LP by column generation, plus node-count bounds). */
export { lowerBound, type LowerBound, type LowerBoundOptions } from './bound.js';
export { writeLp, type LpModel, type LpResult, type LpSolve } from './lp.js';
