import { Type } from '@sinclair/typebox';

/** The root fields every CRD schema carries (apiVersion, kind, metadata). */
export const TypeMetaFields = {
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(Type.Unsafe<ObjectMeta>({ type: 'object' })),
};

/** The parts of metav1.ObjectMeta Tenon reads and writes. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  /** Server-side apply's field ownership; informers strip it (see InformerOptions.keepManagedFields). */
  managedFields?: unknown[];
}

/** metav1.OwnerReference. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}
