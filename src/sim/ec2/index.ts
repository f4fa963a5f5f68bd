/** The simulated EC2 account: implements the AWS port for the playground and tests. */
export { SimEc2, type SimApiStats } from './sim-ec2.js';
export { SimAccountId, type SimEc2Options, type SimLaunchTemplate } from './account.js';
export type { SimInstance, SimInstanceEvent, InstanceTimings } from './instances.js';
export type { PoolKey } from './market.js';
export type { SimAction, RateLimit } from './rate-limits.js';
export { defaultRateLimit } from './rate-limits.js';
export { loadCatalog, type CatalogEntry } from './catalog.js';
