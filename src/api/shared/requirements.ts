import {
  Type,
  type TObject,
  type TArray,
  type TString,
  type TOptional,
  type TInteger,
  type TUnsafe,
} from '@sinclair/typebox';
import { Int, Str, StringEnum, rule } from '../schema/builders.js';
import type { ValidationRule } from '../schema/json-schema-props.js';
import { LabelKeyPattern, LabelValuePattern } from './label-rules.js';

/** Operators Karpenter's v1 CRDs accept on requirements. */
export const RequirementOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'] as const;

type RequirementSchema = TObject<{
  key: TString;
  minValues: TOptional<TInteger>;
  operator: TUnsafe<(typeof RequirementOperators)[number]>;
  values: TOptional<TArray<TString>>;
}>;

/** One requirement with `minValues`, the key guarded by the given label rules. */
export function RequirementSchema(keyRules: ValidationRule[]): RequirementSchema {
  return Type.Object({
    key: Str({ maxLength: 316, pattern: LabelKeyPattern, 'x-kubernetes-validations': keyRules }),
    minValues: Type.Optional(Int({ minimum: 1, maximum: 50 })),
    operator: StringEnum(RequirementOperators),
    // Upstream puts maxLength/pattern on the array itself, where the apiserver ignores them; kept for parity.
    values: Type.Optional(
      Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic', maxLength: 63, pattern: LabelValuePattern }),
    ),
  });
}

/** The requirements list with Karpenter's three list-level rules. */
export function RequirementsSchema(keyRules: ValidationRule[]): TArray<RequirementSchema> {
  return Type.Array(RequirementSchema(keyRules), {
    maxItems: 100,
    'x-kubernetes-list-type': 'atomic',
    'x-kubernetes-validations': [
      rule(
        "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
        "requirements with operator 'In' must have a value defined",
      ),
      rule(
        "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || x.operator == 'Lte') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
        "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
      ),
      rule(
        "self.all(x, (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues : true)",
        "requirements with 'minValues' must have at least that many values specified in the 'values' field",
      ),
    ],
  });
}

/** A plain node selector requirement (no minValues, no rules), as EC2NodeClass status AMIs carry it. */
export const NodeSelectorRequirementSchema = Type.Object({
  key: Type.String(),
  operator: Type.String(),
  values: Type.Optional(Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic' })),
});
