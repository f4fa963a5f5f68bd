import { Type, type Static } from '@sinclair/typebox';
import { Int, ResourceListSchema, Str, StringEnum, rule } from '../schema/builders.js';
import { ConditionsSchema, StrictConditionSchema } from '../shared/conditions.js';
import { LabelKeyPattern, LabelValuePattern, nodeOverlayRequirementKeyRules } from '../shared/label-rules.js';
import { TypeMetaFields } from '../shared/object-meta.js';
import { RequirementOperators } from '../shared/requirements.js';

/** `price`: an absolute hourly price in dollars. */
export const OverlayPricePattern = '^\\d+(\\.\\d+)?$';
/** `priceAdjustment`: `+N`/`-N` dollars, `+N%`, or `-N%` down to `-100%`. */
export const OverlayPriceAdjustmentPattern =
  '^(([+-]{1}(\\d*\\.?\\d+))|(\\+{1}\\d*\\.?\\d+%)|(^(-\\d{1,2}(\\.\\d+)?%)$)|(-100%))$';

/** One NodeOverlay requirement (a node selector requirement; no minValues). */
export const OverlayRequirementSchema = Type.Object({
  key: Str({ maxLength: 316, pattern: LabelKeyPattern, 'x-kubernetes-validations': nodeOverlayRequirementKeyRules() }),
  operator: StringEnum(RequirementOperators),
  values: Type.Optional(
    Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic', maxLength: 63, pattern: LabelValuePattern }),
  ),
});

/** `spec` of a NodeOverlay: which instance types it selects and what it changes about them. */
export const NodeOverlaySpecSchema = Type.Object(
  {
    capacity: Type.Optional(
      ResourceListSchema({
        'x-kubernetes-validations': [
          rule("self.all(x, !(x in ['cpu', 'memory', 'ephemeral-storage', 'pods']))", 'invalid resource restricted'),
        ],
      }),
    ),
    price: Type.Optional(Str({ pattern: OverlayPricePattern })),
    priceAdjustment: Type.Optional(Str({ pattern: OverlayPriceAdjustmentPattern })),
    requirements: Type.Array(OverlayRequirementSchema, {
      maxItems: 100,
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-validations': [
        rule(
          "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
          "requirements with operator 'In' must have a value defined",
        ),
        rule(
          "self.all(x, x.operator == 'NotIn' ? x.values.size() != 0 : true)",
          "requirements with operator 'NotIn' must have a value defined",
        ),
        rule(
          "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || x.operator == 'Lte') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
          "requirements operator 'Gt', 'Lt', 'Gte' or 'Lte' must have a single positive integer value",
        ),
      ],
    }),
    weight: Type.Optional(Int({ format: 'int32', minimum: 1, maximum: 10000 })),
  },
  {
    'x-kubernetes-validations': [
      rule('!has(self.price) || !has(self.priceAdjustment)', "cannot set both 'price' and 'priceAdjustment'"),
    ],
  },
);

/** `status` of a NodeOverlay. */
export const NodeOverlayStatusSchema = Type.Object({
  conditions: Type.Optional(ConditionsSchema(StrictConditionSchema)),
});

/** karpenter.sh/v1alpha1 NodeOverlay. */
export const NodeOverlaySchema = Type.Object({
  ...TypeMetaFields,
  spec: NodeOverlaySpecSchema,
  status: Type.Optional(NodeOverlayStatusSchema),
});

/** A karpenter.sh/v1alpha1 NodeOverlay. */
export type NodeOverlay = Static<typeof NodeOverlaySchema>;
/** A NodeOverlay's spec. */
export type NodeOverlaySpec = Static<typeof NodeOverlaySpecSchema>;
