/**
 * The reasons of the status conditions Tenon sets, by the kind that carries them; Karpenter's names where it has
 * them. A condition's reason is a constant from here (test/architecture/literal-reasons.test.ts checks it), so a
 * user's alert or `kubectl wait` on a reason keeps matching what the code writes.
 */
export const ConditionReasons = {
  // NodeClaim: Launched, Registered, Initialized, Ready
  launched: 'Launched',
  launchFailed: 'LaunchFailed',
  insufficientCapacity: 'InsufficientCapacity',
  nodeClassNotReady: 'NodeClassNotReady',
  awaitingLaunch: 'AwaitingLaunch',
  registered: 'Registered',
  nodeNotFound: 'NodeNotFound',
  multipleNodesFound: 'MultipleNodesFound',
  unregisteredTaintNotFound: 'UnregisteredTaintNotFound',
  initialized: 'Initialized',
  nodeNotReady: 'NodeNotReady',
  startupTaintsExist: 'StartupTaintsExist',
  resourcesNotRegistered: 'ResourceNotRegistered',
  knownEphemeralTaintsExist: 'KnownEphemeralTaintsExist',
  awaitingReconciliation: 'AwaitingReconciliation',
  // NodeClaim: Drifted, Consolidatable, DisruptionReason (the last takes the budget reasons below)
  drifted: 'Drifted',
  nodePoolDrifted: 'NodePoolDrifted',
  requirementsDrifted: 'RequirementsDrifted',
  consolidatable: 'Consolidatable',
  empty: 'Empty',
  underutilized: 'Underutilized',
  expired: 'Expired',
  unhealthy: 'Unhealthy',
  // Ready of every kind: True, or False while a dependent condition is not True
  ready: 'Ready',
  unhealthyDependents: 'UnhealthyDependents',
  // NodePool: ValidationSucceeded, NodeClassReady
  validationSucceeded: 'ValidationSucceeded',
  nodeClassReady: 'NodeClassReady',
  nodeClassNotFound: 'NodeClassNotFound',
  nodeClassTerminating: 'NodeClassTerminating',
  nodeClassReadinessUnknown: 'NodeClassReadinessUnknown',
  // NodeOverlay
  conflict: 'Conflict',
  // CapacityBuffer: ReadyForProvisioning (the cluster-autoscaler's buffer controller: True, or False as 'error')
  attributesSetSuccessfully: 'AttributesSetSuccessfully',
  bufferError: 'error',
  // EC2NodeClass: SubnetsReady, SecurityGroupsReady, AMIsReady, InstanceProfileReady, PlacementGroupReady,
  // ValidationSucceeded, UserDataValid
  subnetsNotFound: 'SubnetsNotFound',
  securityGroupsNotFound: 'SecurityGroupsNotFound',
  amiNotFound: 'AMINotFound',
  instanceProfileNotFound: 'InstanceProfileNotFound',
  instanceProfileCreationFailed: 'InstanceProfileCreationFailed',
  placementGroupNotFound: 'PlacementGroupNotFound',
  placementGroupResolutionFailed: 'PlacementGroupResolutionFailed',
  tagsNotAllowed: 'TagsNotAllowed',
  invalidKubeletConfiguration: 'InvalidKubeletConfiguration',
  invalidUserData: 'InvalidUserData',
  userDataValid: 'UserDataValid',
  userDataInvalid: 'UserDataInvalid',
  userDataWarnings: 'UserDataWarnings',
} as const;

/** One condition reason Tenon sets. */
export type ConditionReason = (typeof ConditionReasons)[keyof typeof ConditionReasons];
