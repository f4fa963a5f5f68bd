/** Every Event reason Tenon's controllers emit, in one place (Karpenter's names where it has them). */
export const EventReasons = {
  // provisioning
  nominated: 'Nominated',
  failedScheduling: 'FailedScheduling',
  noCompatibleInstanceTypes: 'NoCompatibleInstanceTypes',
  // nodeclaim lifecycle
  launched: 'Launched',
  launchFailed: 'LaunchFailed',
  insufficientCapacityError: 'InsufficientCapacityError',
  nodeClassNotReady: 'NodeClassNotReady',
  registered: 'Registered',
  unregisteredTaintMissing: 'UnregisteredTaintMissing',
  unexpectedTaints: 'UnexpectedTaints',
  initialized: 'Initialized',
  ephemeralTaintLingering: 'EphemeralTaintLingering',
  launchTimeout: 'LaunchTimeout',
  registrationTimeout: 'RegistrationTimeout',
  // termination
  disruptionTerminating: 'DisruptionTerminating',
  evicted: 'Evicted',
  failedDraining: 'FailedDraining',
  terminationGracePeriodExpiring: 'TerminationGracePeriodExpiring',
  awaitingVolumeDetachment: 'AwaitingVolumeDetachment',
  instanceTerminating: 'InstanceTerminating',
  // garbage collection and repair
  garbageCollected: 'GarbageCollected',
  nodeRepair: 'NodeRepair',
  nodeRepairBlocked: 'NodeRepairBlocked',
  // disruption
  disruptionBlocked: 'DisruptionBlocked',
  disruptionLaunching: 'DisruptionLaunching',
  disruptionWaitingReadiness: 'DisruptionWaitingReadiness',
  unconsolidatable: 'Unconsolidatable',
  // static NodePools
  staticNodePoolLimited: 'StaticNodePoolLimited',
} as const;
