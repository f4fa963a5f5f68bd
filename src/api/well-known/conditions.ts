/** Status condition types on NodeClaims, NodePools and EC2NodeClasses (Karpenter v1 names). */
export const ConditionTypes = {
  // NodeClaim
  launched: 'Launched',
  registered: 'Registered',
  initialized: 'Initialized',
  ready: 'Ready',
  drifted: 'Drifted',
  consolidatable: 'Consolidatable',
  disruptionReason: 'DisruptionReason',
  instanceTerminating: 'InstanceTerminating',
  consistentStateFound: 'ConsistentStateFound',
  // NodePool
  validationSucceeded: 'ValidationSucceeded',
  nodeClassReady: 'NodeClassReady',
  nodeRegistrationHealthy: 'NodeRegistrationHealthy',
  // EC2NodeClass
  subnetsReady: 'SubnetsReady',
  securityGroupsReady: 'SecurityGroupsReady',
  amisReady: 'AMIsReady',
  instanceProfileReady: 'InstanceProfileReady',
  capacityReservationsReady: 'CapacityReservationsReady',
  placementGroupReady: 'PlacementGroupReady',
  userDataValid: 'UserDataValid',
} as const;

/** One condition type. */
export type ConditionType = (typeof ConditionTypes)[keyof typeof ConditionTypes];

/** Disruption reasons usable in NodePool budgets. */
export const DisruptionReasons = ['Underutilized', 'Empty', 'Drifted'] as const;
/** One budget reason. */
export type DisruptionReason = (typeof DisruptionReasons)[number];
