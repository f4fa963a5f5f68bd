import { Type, type Static } from '@sinclair/typebox';
import { Int, ResourceListSchema, Str, rule } from '../schema/builders.js';
import { ConditionsSchema, StrictConditionSchema } from '../shared/conditions.js';
import { TypeMetaFields } from '../shared/object-meta.js';

/** The strategy SIG Autoscaling defines: keep the buffer as real, provisioned capacity. */
export const ActiveCapacityStrategy = 'buffer.x-k8s.io/active-capacity' as const;

const localRef = Type.Object({ name: Str({ minLength: 1 }) });

/** A reference to an object with a scale subresource (a Deployment, a StatefulSet...). */
export const ScalableRefSchema = Type.Object({
  apiGroup: Type.Optional(Type.String()),
  kind: Str({ minLength: 1 }),
  name: Str({ minLength: 1 }),
});

/** `spec` of a CapacityBuffer: the shape of one buffer unit (a pod template or a scalable's pods) and how many. */
export const CapacityBufferSpecSchema = Type.Object(
  {
    limits: Type.Optional(ResourceListSchema()),
    percentage: Type.Optional(Int({ format: 'int32', minimum: 0 })),
    podTemplateRef: Type.Optional(localRef),
    provisioningStrategy: Type.Optional(Str({ default: ActiveCapacityStrategy })),
    replicas: Type.Optional(Int({ format: 'int32', minimum: 0 })),
    scalableRef: Type.Optional(ScalableRefSchema),
  },
  {
    'x-kubernetes-validations': [
      rule(
        '!(has(self.podTemplateRef) && has(self.scalableRef))',
        'You must define either PodTemplateRef or ScalableRef, but not both',
      ),
      rule(
        '!has(self.podTemplateRef) || has(self.replicas) || has(self.limits)',
        'If podTemplateRef is set, replicas or limits must also be set',
      ),
    ],
  },
);

/** `status` of a CapacityBuffer: the resolved template and replica count the autoscaler provisions for. */
export const CapacityBufferStatusSchema = Type.Object({
  conditions: Type.Optional(ConditionsSchema(StrictConditionSchema)),
  podTemplateGeneration: Type.Optional(Int({ format: 'int64' })),
  podTemplateRef: Type.Optional(localRef),
  provisioningStrategy: Type.Optional(Type.String()),
  replicas: Type.Optional(Int({ format: 'int32' })),
});

/** autoscaling.x-k8s.io/v1beta1 CapacityBuffer. */
export const CapacityBufferSchema = Type.Object({
  ...TypeMetaFields,
  spec: CapacityBufferSpecSchema,
  status: Type.Optional(CapacityBufferStatusSchema),
});

/** An autoscaling.x-k8s.io/v1beta1 CapacityBuffer. */
export type CapacityBuffer = Static<typeof CapacityBufferSchema>;
/** A CapacityBuffer's spec. */
export type CapacityBufferSpec = Static<typeof CapacityBufferSpecSchema>;
/** A CapacityBuffer's status. */
export type CapacityBufferStatus = Static<typeof CapacityBufferStatusSchema>;
