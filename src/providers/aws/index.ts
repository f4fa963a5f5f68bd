/** The AWS cloud provider: Karpenter's AWS behaviour over the AwsPort. */
export { AwsCloudProvider, isReady } from './aws-cloud-provider.js';
export type { AwsCloudProviderOptions, AwsClusterOptions } from './options.js';
export { NodeClassResolver, type NodeClassResolverOptions, type NodeClassResolution } from './nodeclass/resolver.js';
export { cleanupNodeClass, type NodeClassCleanup } from './nodeclass/cleanup.js';
export { nodeClassHash, NodeClassHashVersion } from './nodeclass/hash.js';
export { DriftReasons } from './drift.js';
export { awsRepairPolicies } from './repair-policies.js';
export {
  computeResources,
  eniLimitedPods,
  maxPods,
  type OverheadSettings,
  type ComputedResources,
} from './instancetype/overhead.js';
export { instanceTypeLabels } from './instancetype/labels.js';
export { toResourceList, formatAmount } from './instancetype/quantities.js';
export { providerIdOf, instanceIdOf } from './instance/provider-id.js';
export { UnavailableOfferingTtlMs } from './cache/unavailable-offerings.js';
export { MaxInstanceTypesPerLaunch } from './launch/plan.js';
export { LaunchTemplateTtlMs } from './launch/launch-templates.js';
export * from './ports/index.js';
export { wireAwsProvider, type AwsProviderWiring, type AwsWiringOptions } from './wiring.js';
