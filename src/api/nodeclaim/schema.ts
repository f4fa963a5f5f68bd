import { Type, type Static } from '@sinclair/typebox';
import { ResourceListSchema, Str, rule } from '../schema/builders.js';
import { ConditionsSchema, RelaxedConditionSchema } from '../shared/conditions.js';
import { DurationPattern, NillableDurationPattern } from '../shared/durations.js';
import { nodeClaimRequirementKeyRules } from '../shared/label-rules.js';
import { NodeClaimNodeClassRefSchema } from '../shared/node-class-ref.js';
import { TypeMetaFields } from '../shared/object-meta.js';
import { RequirementsSchema } from '../shared/requirements.js';
import { TaintsSchema } from '../shared/taints.js';

/** `spec` of a NodeClaim: immutable once created. */
export const NodeClaimSpecSchema = Type.Object(
  {
    expireAfter: Type.Optional(Str({ default: '720h', pattern: NillableDurationPattern })),
    nodeClassRef: NodeClaimNodeClassRefSchema,
    requirements: RequirementsSchema(nodeClaimRequirementKeyRules()),
    resources: Type.Optional(Type.Object({ requests: Type.Optional(ResourceListSchema()) })),
    startupTaints: Type.Optional(TaintsSchema),
    taints: Type.Optional(TaintsSchema),
    terminationGracePeriod: Type.Optional(Str({ pattern: DurationPattern })),
  },
  { 'x-kubernetes-validations': [rule('self == oldSelf', 'spec is immutable')] },
);

/** `status` of a NodeClaim. */
export const NodeClaimStatusSchema = Type.Object({
  allocatable: Type.Optional(ResourceListSchema()),
  capacity: Type.Optional(ResourceListSchema()),
  conditions: Type.Optional(ConditionsSchema(RelaxedConditionSchema)),
  imageID: Type.Optional(Type.String()),
  lastPodEventTime: Type.Optional(Str({ format: 'date-time' })),
  nodeName: Type.Optional(Type.String()),
  providerID: Type.Optional(Type.String()),
});

/** karpenter.sh/v1 NodeClaim. */
export const NodeClaimSchema = Type.Object({
  ...TypeMetaFields,
  spec: NodeClaimSpecSchema,
  status: Type.Optional(NodeClaimStatusSchema),
});

/** A karpenter.sh/v1 NodeClaim. */
export type NodeClaim = Static<typeof NodeClaimSchema>;
/** A NodeClaim's spec. */
export type NodeClaimSpec = Static<typeof NodeClaimSpecSchema>;
/** A NodeClaim's status. */
export type NodeClaimStatus = Static<typeof NodeClaimStatusSchema>;
