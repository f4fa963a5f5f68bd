/** Well-known node labels: Kubernetes', Karpenter's and the AWS provider's. */
export const Labels = {
  // Kubernetes well-known labels.
  hostname: 'kubernetes.io/hostname',
  arch: 'kubernetes.io/arch',
  os: 'kubernetes.io/os',
  instanceType: 'node.kubernetes.io/instance-type',
  zone: 'topology.kubernetes.io/zone',
  region: 'topology.kubernetes.io/region',
  windowsBuild: 'node.kubernetes.io/windows-build',
  // Karpenter core.
  nodePool: 'karpenter.sh/nodepool',
  capacityType: 'karpenter.sh/capacity-type',
  registered: 'karpenter.sh/registered',
  initialized: 'karpenter.sh/initialized',
  doNotSync: 'karpenter.sh/do-not-sync-taints',
  // AWS provider.
  ec2NodeClass: 'karpenter.k8s.aws/ec2nodeclass',
  zoneId: 'topology.k8s.aws/zone-id',
  instanceCategory: 'karpenter.k8s.aws/instance-category',
  instanceFamily: 'karpenter.k8s.aws/instance-family',
  instanceGeneration: 'karpenter.k8s.aws/instance-generation',
  instanceSize: 'karpenter.k8s.aws/instance-size',
  instanceCpu: 'karpenter.k8s.aws/instance-cpu',
  instanceCpuManufacturer: 'karpenter.k8s.aws/instance-cpu-manufacturer',
  instanceCpuSustainedClockSpeedMhz: 'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz',
  instanceMemory: 'karpenter.k8s.aws/instance-memory',
  instanceEbsBandwidth: 'karpenter.k8s.aws/instance-ebs-bandwidth',
  instanceNetworkBandwidth: 'karpenter.k8s.aws/instance-network-bandwidth',
  instanceGpuName: 'karpenter.k8s.aws/instance-gpu-name',
  instanceGpuManufacturer: 'karpenter.k8s.aws/instance-gpu-manufacturer',
  instanceGpuCount: 'karpenter.k8s.aws/instance-gpu-count',
  instanceGpuMemory: 'karpenter.k8s.aws/instance-gpu-memory',
  instanceAcceleratorName: 'karpenter.k8s.aws/instance-accelerator-name',
  instanceAcceleratorManufacturer: 'karpenter.k8s.aws/instance-accelerator-manufacturer',
  instanceAcceleratorCount: 'karpenter.k8s.aws/instance-accelerator-count',
  instanceHypervisor: 'karpenter.k8s.aws/instance-hypervisor',
  instanceEncryptionInTransitSupported: 'karpenter.k8s.aws/instance-encryption-in-transit-supported',
  instanceLocalNvme: 'karpenter.k8s.aws/instance-local-nvme',
  instanceCapabilityFlex: 'karpenter.k8s.aws/instance-capability-flex',
  capacityReservationId: 'karpenter.k8s.aws/capacity-reservation-id',
  capacityReservationType: 'karpenter.k8s.aws/capacity-reservation-type',
  capacityReservationInterruptible: 'karpenter.k8s.aws/capacity-reservation-interruptible',
  placementGroupId: 'karpenter.k8s.aws/placement-group-id',
  placementGroupPartition: 'karpenter.k8s.aws/placement-group-partition',
} as const;

/** Values of `karpenter.sh/capacity-type`. */
export const CapacityTypes = { spot: 'spot', onDemand: 'on-demand', reserved: 'reserved' } as const;
/** One capacity type. */
export type CapacityType = (typeof CapacityTypes)[keyof typeof CapacityTypes];
