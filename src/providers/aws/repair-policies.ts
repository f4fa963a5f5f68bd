/** The AWS provider's repair policies: the defaults plus the EKS node monitoring agent's conditions. */
import { defaultRepairPolicies, type RepairPolicy } from '../../cloudprovider/index.js';

const minutes = (n: number): number => n * 60_000;

/** Node conditions the node monitoring agent sets, and how long each may be False before the node is replaced. */
export const awsRepairPolicies: readonly RepairPolicy[] = [
  ...defaultRepairPolicies,
  { conditionType: 'AcceleratedHardwareReady', conditionStatus: 'False', tolerationDuration: minutes(10) },
  { conditionType: 'StorageReady', conditionStatus: 'False', tolerationDuration: minutes(30) },
  { conditionType: 'NetworkingReady', conditionStatus: 'False', tolerationDuration: minutes(30) },
  { conditionType: 'KernelReady', conditionStatus: 'False', tolerationDuration: minutes(30) },
  { conditionType: 'ContainerRuntimeReady', conditionStatus: 'False', tolerationDuration: minutes(30) },
];
