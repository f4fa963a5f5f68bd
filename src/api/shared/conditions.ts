import { Type, type TArray } from '@sinclair/typebox';
import { Int, Str, StringEnum } from '../schema/builders.js';

const conditionType = Str({
  maxLength: 316,
  pattern:
    '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
});
const status = StringEnum(['True', 'False', 'Unknown'] as const);
const observedGeneration = Type.Optional(Int({ format: 'int64', minimum: 0 }));
const lastTransitionTime = Str({ format: 'date-time' });

/** A status condition as NodePool and EC2NodeClass publish it: reason and message required, reason non-empty. */
export const StrictConditionSchema = Type.Object({
  lastTransitionTime,
  message: Str({ maxLength: 32768 }),
  observedGeneration,
  reason: Str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
  status,
  type: conditionType,
});

/** A status condition as NodeClaim publishes it (newer operatorpkg): reason and message optional, reason may be empty. */
export const RelaxedConditionSchema = Type.Object({
  lastTransitionTime,
  message: Type.Optional(Str({ maxLength: 32768 })),
  observedGeneration,
  reason: Type.Optional(Str({ maxLength: 1024, pattern: '^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$' })),
  status,
  type: conditionType,
});

/** A conditions list as the CRDs publish it: a map keyed by `type` (one condition per type). */
export function ConditionsSchema<T extends typeof StrictConditionSchema | typeof RelaxedConditionSchema>(
  item: T,
): TArray<T> {
  return Type.Array(item, { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' });
}
