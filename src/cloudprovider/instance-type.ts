/** Instance types and their offerings, as a cloud provider describes them to the scheduler. */
import type { CapacityType, NodeSelectorRequirementWithMinValues, ResourceList } from '../api/index.js';

/** One place and way an instance type can be bought: zone x capacity type, at a price, maybe available. */
export interface Offering {
  zone: string;
  capacityType: CapacityType;
  /** Hourly price in USD. */
  price: number;
  /** False while the provider believes the offering cannot be launched (e.g. recent insufficient capacity). */
  available: boolean;
  /** Set for offerings backed by a capacity reservation. */
  reservationId?: string;
  /** Instances the reservation can still take (reserved offerings only). */
  reservationCapacity?: number;
}

/** What the node itself keeps back from the machine's capacity; allocatable = capacity - all three. */
export interface InstanceTypeOverhead {
  kubeReserved: ResourceList;
  systemReserved: ResourceList;
  evictionThreshold: ResourceList;
}

/** An instance type: what a node of that type is, offers pods, and costs where. */
export interface InstanceType {
  name: string;
  /** Single-valued well-known labels a node of this type carries (arch, os, instance-type, instance-*). */
  labels: Record<string, string>;
  /** The labels as requirements, plus zone and capacity-type `In` the offerings' values. */
  requirements: NodeSelectorRequirementWithMinValues[];
  capacity: ResourceList;
  overhead: InstanceTypeOverhead;
  allocatable: ResourceList;
  offerings: Offering[];
  /** Volumes a node of this type can attach per CSI driver, as its CSINode will report them (absent: unknown). */
  csiAttachLimits?: Record<string, number>;
}

/** The identity of one offering, as reported in errors: which type, where, how bought. */
export interface OfferingRef {
  instanceType: string;
  zone: string;
  capacityType: CapacityType;
}

/** The cheapest available offering of a type, if any. */
export function cheapestOffering(instanceType: InstanceType): Offering | undefined {
  let best: Offering | undefined;
  for (const o of instanceType.offerings) {
    if (o.available && (best === undefined || o.price < best.price)) best = o;
  }
  return best;
}
