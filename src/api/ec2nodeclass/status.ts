import { Type, type Static } from '@sinclair/typebox';
import { Str, StringEnum } from '../schema/builders.js';
import { StrictConditionSchema } from '../shared/conditions.js';
import { NodeSelectorRequirementSchema } from '../shared/requirements.js';

/** A resolved AMI. */
export const AMIStatusSchema = Type.Object({
  deprecated: Type.Optional(Type.Boolean()),
  id: Type.String(),
  name: Type.Optional(Type.String()),
  requirements: Type.Array(NodeSelectorRequirementSchema),
});

/** A resolved capacity reservation. */
export const CapacityReservationStatusSchema = Type.Object({
  availabilityZone: Type.String(),
  endTime: Type.Optional(Str({ format: 'date-time' })),
  id: Str({ pattern: '^cr-[0-9a-z]+$' }),
  instanceMatchCriteria: StringEnum(['open', 'targeted'] as const),
  instanceType: Type.String(),
  interruptible: Type.Optional(Type.Boolean()),
  ownerID: Str({ pattern: '^[0-9]{12}$' }),
  reservationType: Type.Optional(StringEnum(['default', 'capacity-block'] as const, { default: 'default' })),
  state: Type.Optional(StringEnum(['active', 'expiring'] as const, { default: 'active' })),
});

/** `status` of an EC2NodeClass. */
export const EC2NodeClassStatusSchema = Type.Object({
  amis: Type.Optional(Type.Array(AMIStatusSchema)),
  capacityReservations: Type.Optional(Type.Array(CapacityReservationStatusSchema)),
  conditions: Type.Optional(Type.Array(StrictConditionSchema)),
  instanceProfile: Type.Optional(Type.String()),
  securityGroups: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) }))),
  subnets: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), zone: Type.String(), zoneID: Type.Optional(Type.String()) })),
  ),
});

/** An EC2NodeClass status. */
export type EC2NodeClassStatus = Static<typeof EC2NodeClassStatusSchema>;
/** A resolved AMI. */
export type AMIStatus = Static<typeof AMIStatusSchema>;
/** A resolved capacity reservation. */
export type CapacityReservationStatus = Static<typeof CapacityReservationStatusSchema>;
