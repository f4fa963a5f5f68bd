import type { TaintEffect } from './well-known/taints.js';

/** A Node taint (core/v1 Taint). */
export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

/** A pod toleration (core/v1 Toleration). */
export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number;
}

/** Operators of node selector requirements, including Karpenter's Gte and Lte. */
export type RequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';

/** A node selector requirement as NodePools and NodeClaims carry it (with Karpenter's `minValues`). */
export interface NodeSelectorRequirementWithMinValues {
  key: string;
  operator: RequirementOperator;
  values?: string[];
  minValues?: number;
}

/** A status condition (metav1.Condition). */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A map of resource names to Kubernetes quantities as strings. */
export type ResourceList = Record<string, string>;
