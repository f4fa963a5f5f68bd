import { Type, type Static } from '@sinclair/typebox';
import { Int, ResourceListSchema, Str, StringEnum, StringMap, rule } from '../schema/builders.js';
import { ConditionsSchema, StrictConditionSchema } from '../shared/conditions.js';
import { DurationPattern, NillableDurationPattern } from '../shared/durations.js';
import { LabelValuePattern, nodePoolLabelMapRules, nodePoolRequirementKeyRules } from '../shared/label-rules.js';
import { NodeClassRefSchema } from '../shared/node-class-ref.js';
import { TypeMetaFields } from '../shared/object-meta.js';
import { RequirementsSchema } from '../shared/requirements.js';
import { TaintsSchema } from '../shared/taints.js';

/** Consolidation policies. */
export const ConsolidationPolicies = ['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'] as const;
/** Reasons a budget may be limited to. */
export const BudgetReasons = ['Underutilized', 'Empty', 'Drifted', 'Unhealthy'] as const;

/** One disruption budget. */
export const BudgetSchema = Type.Object({
  duration: Type.Optional(Str({ pattern: '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$' })),
  nodes: Str({ default: '10%', pattern: '^((100|[0-9]{1,2})%|[0-9]+)$' }),
  reasons: Type.Optional(Type.Array(StringEnum(BudgetReasons), { maxItems: 50, 'x-kubernetes-list-type': 'set' })),
  schedule: Type.Optional(
    Str({ pattern: '^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$' }),
  ),
});

/** `spec.disruption`. */
export const DisruptionSchema = Type.Object(
  {
    budgets: Type.Optional(
      Type.Array(BudgetSchema, {
        default: [{ nodes: '10%' }],
        maxItems: 50,
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-validations': [
          rule('self.all(x, has(x.schedule) == has(x.duration))', "'schedule' must be set with 'duration'"),
        ],
      }),
    ),
    consolidateAfter: Type.Optional(Str({ default: '0s', pattern: NillableDurationPattern })),
    consolidationPolicy: Type.Optional(StringEnum(ConsolidationPolicies, { default: 'WhenEmptyOrUnderutilized' })),
  },
  { default: { consolidateAfter: '0s' } },
);

/** `spec.template.metadata`. */
export const NodeClaimTemplateMetadataSchema = Type.Object({
  annotations: Type.Optional(StringMap({ 'x-kubernetes-map-type': 'granular' })),
  labels: Type.Optional(
    Type.Unsafe<Record<string, string>>({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 63, pattern: LabelValuePattern },
      maxProperties: 100,
      'x-kubernetes-map-type': 'atomic',
      'x-kubernetes-validations': nodePoolLabelMapRules(),
    }),
  ),
});

/** `spec.template.spec` (NodeClaimTemplateSpec: a NodeClaim spec without resource requests). */
export const NodeClaimTemplateSpecSchema = Type.Object({
  expireAfter: Type.Optional(Str({ default: '720h', pattern: NillableDurationPattern })),
  nodeClassRef: NodeClassRefSchema,
  requirements: RequirementsSchema(nodePoolRequirementKeyRules()),
  startupTaints: Type.Optional(TaintsSchema),
  taints: Type.Optional(TaintsSchema),
  terminationGracePeriod: Type.Optional(Str({ pattern: DurationPattern })),
});

/** `spec` of a NodePool. A NodePool with `replicas` is static: it keeps that many nodes, whatever the pods. */
export const NodePoolSpecSchema = Type.Object(
  {
    disruption: Type.Optional(DisruptionSchema),
    limits: Type.Optional(ResourceListSchema()),
    replicas: Type.Optional(Int({ format: 'int64', minimum: 0 })),
    template: Type.Object({
      metadata: Type.Optional(NodeClaimTemplateMetadataSchema),
      spec: NodeClaimTemplateSpecSchema,
    }),
    weight: Type.Optional(Int({ format: 'int32', minimum: 1, maximum: 100 })),
  },
  {
    'x-kubernetes-validations': [
      rule(
        'has(self.replicas) == has(oldSelf.replicas)',
        'Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes',
      ),
      rule(
        "!has(self.replicas) || (!has(self.limits) || size(self.limits) == 0 || (size(self.limits) == 1 && 'nodes' in self.limits))",
        "only 'limits.nodes' is supported on static NodePools",
      ),
      rule('!has(self.replicas) || !has(self.weight)', "'weight' is not supported on static NodePools"),
    ],
  },
);

/** `status` of a NodePool. */
export const NodePoolStatusSchema = Type.Object({
  conditions: Type.Optional(ConditionsSchema(StrictConditionSchema)),
  nodeClassObservedGeneration: Type.Optional(Int({ format: 'int64' })),
  nodes: Type.Optional(Int({ default: 0, format: 'int64' })),
  resources: Type.Optional(ResourceListSchema()),
});

/** karpenter.sh/v1 NodePool: the schema the CRD publishes (one source of truth for types and validation). */
export const NodePoolSchema = Type.Object({
  ...TypeMetaFields,
  spec: NodePoolSpecSchema,
  status: Type.Optional(NodePoolStatusSchema),
});

/** A karpenter.sh/v1 NodePool. */
export type NodePool = Static<typeof NodePoolSchema>;
/** A NodePool's spec. */
export type NodePoolSpec = Static<typeof NodePoolSpecSchema>;
/** A NodePool's status. */
export type NodePoolStatus = Static<typeof NodePoolStatusSchema>;
/** One disruption budget. */
export type Budget = Static<typeof BudgetSchema>;
/** `spec.disruption`. */
export type Disruption = Static<typeof DisruptionSchema>;
/** `spec.template.spec`. */
export type NodeClaimTemplateSpec = Static<typeof NodeClaimTemplateSpecSchema>;
/** One consolidation policy. */
export type ConsolidationPolicy = (typeof ConsolidationPolicies)[number];
