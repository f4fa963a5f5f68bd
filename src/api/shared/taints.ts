import { Type } from '@sinclair/typebox';
import { Str, StringEnum } from '../schema/builders.js';
import { LabelKeyPattern } from './label-rules.js';

/** Taint effects as the CRDs enumerate them. */
export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** A core/v1 Taint with Karpenter's key/value patterns. */
export const TaintSchema = Type.Object({
  effect: StringEnum(TaintEffects),
  key: Str({ minLength: 1, pattern: LabelKeyPattern }),
  timeAdded: Type.Optional(Str({ format: 'date-time' })),
  value: Type.Optional(Str({ pattern: LabelKeyPattern })),
});

/** A list of taints. */
export const TaintsSchema = Type.Array(TaintSchema, { 'x-kubernetes-list-type': 'atomic' });
