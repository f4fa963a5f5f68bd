/**
 * The minimal shapes of Karpenter's NodeClaim and NodePool the cloud provider interface needs.
 * Kept local on purpose: the full API types live in src/api and are structurally compatible with these.
 */
import type { Condition, NodeSelectorRequirementWithMinValues, ResourceList, Taint } from '../api/index.js';

/** The object metadata fields a provider reads or writes. */
export interface ObjectMeta {
  name: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  generation?: number;
}

/** A reference from a NodePool or NodeClaim to its provider-specific NodeClass. */
export interface NodeClassRef {
  group: string;
  kind: string;
  name: string;
}

/** The spec fields of a NodeClaim that a provider launches from. */
export interface NodeClaimSpec {
  nodeClassRef: NodeClassRef;
  requirements: NodeSelectorRequirementWithMinValues[];
  resources?: { requests?: ResourceList };
  taints?: Taint[];
  startupTaints?: Taint[];
}

/** The status fields a provider fills in on Create and Get. */
export interface NodeClaimStatus {
  providerID?: string;
  imageID?: string;
  nodeName?: string;
  capacity?: ResourceList;
  allocatable?: ResourceList;
  conditions?: Condition[];
}

/** A karpenter.sh/v1 NodeClaim, as far as the cloud provider is concerned. */
export interface NodeClaim {
  metadata: ObjectMeta;
  spec: NodeClaimSpec;
  status?: NodeClaimStatus;
}

/** A karpenter.sh/v1 NodePool, as far as the cloud provider is concerned. */
export interface NodePool {
  metadata: ObjectMeta;
  spec: {
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        nodeClassRef: NodeClassRef;
        requirements: NodeSelectorRequirementWithMinValues[];
        taints?: Taint[];
        startupTaints?: Taint[];
      };
    };
  };
}
