import { Type, type Static } from '@sinclair/typebox';
import { Str, StringEnum, StringMap, rule } from '../schema/builders.js';

const selectorTags = (): ReturnType<typeof StringMap> =>
  StringMap({
    maxProperties: 20,
    'x-kubernetes-validations': [
      rule("self.all(k, k != '' && self[k] != '')", "empty tag keys or values aren't supported"),
    ],
  });

const aliasRules = [
  rule("self.matches('^[a-zA-Z0-9]+@.+$')", "'alias' is improperly formatted, must match the format 'family@version'"),
  rule(
    "self.split('@')[0] in ['al2','al2023','bottlerocket','windows2019','windows2022','windows2025']",
    "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025'",
  ),
  rule(
    "self.split('@')[0] in ['windows2019','windows2022','windows2025'] ? self.split('@')[1] == 'latest' : true",
    "windows families may only specify version 'latest'",
  ),
];

/** One AMI selector term. */
export const AMISelectorTermSchema = Type.Object({
  alias: Type.Optional(Str({ maxLength: 30, 'x-kubernetes-validations': aliasRules })),
  id: Type.Optional(Str({ pattern: 'ami-[0-9a-z]+' })),
  name: Type.Optional(Type.String()),
  owner: Type.Optional(Type.String()),
  ssmParameter: Type.Optional(Type.String()),
  tags: Type.Optional(selectorTags()),
});

/** `spec.amiSelectorTerms`. */
export const AMISelectorTermsSchema = Type.Array(AMISelectorTermSchema, {
  maxItems: 30,
  minItems: 1,
  'x-kubernetes-validations': [
    rule(
      'self.all(x, has(x.tags) || has(x.id) || has(x.name) || has(x.alias) || has(x.ssmParameter))',
      "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
    ),
    rule(
      '!self.exists(x, has(x.id) && (has(x.alias) || has(x.tags) || has(x.name) || has(x.owner)))',
      "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
    ),
    rule(
      '!self.exists(x, has(x.alias) && (has(x.id) || has(x.tags) || has(x.name) || has(x.owner)))',
      "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
    ),
    rule(
      '!(self.exists(x, has(x.alias)) && self.size() != 1)',
      "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms",
    ),
  ],
});

/** One capacity reservation selector term. */
export const CapacityReservationSelectorTermSchema = Type.Object({
  id: Type.Optional(Str({ pattern: '^cr-[0-9a-z]+$' })),
  instanceMatchCriteria: Type.Optional(StringEnum(['open', 'targeted'] as const)),
  ownerID: Type.Optional(Str({ pattern: '^[0-9]{12}$' })),
  tags: Type.Optional(selectorTags()),
});

/** `spec.capacityReservationSelectorTerms`. */
export const CapacityReservationSelectorTermsSchema = Type.Array(CapacityReservationSelectorTermSchema, {
  maxItems: 30,
  'x-kubernetes-validations': [
    rule(
      'self.all(x, has(x.tags) || has(x.id) || has(x.instanceMatchCriteria))',
      "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
    ),
    rule(
      '!self.all(x, has(x.id) && (has(x.tags) || has(x.ownerID) || has(x.instanceMatchCriteria)))',
      "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
    ),
  ],
});

/** One security group selector term. */
export const SecurityGroupSelectorTermSchema = Type.Object({
  id: Type.Optional(Str({ pattern: 'sg-[0-9a-z]+' })),
  name: Type.Optional(Type.String()),
  tags: Type.Optional(selectorTags()),
});

/** `spec.securityGroupSelectorTerms`. */
export const SecurityGroupSelectorTermsSchema = Type.Array(SecurityGroupSelectorTermSchema, {
  maxItems: 30,
  'x-kubernetes-validations': [
    rule('self.size() != 0', 'securityGroupSelectorTerms cannot be empty'),
    rule(
      'self.all(x, has(x.tags) || has(x.id) || has(x.name))',
      "expected at least one, got none, ['tags', 'id', 'name']",
    ),
    rule(
      '!self.all(x, has(x.id) && (has(x.tags) || has(x.name)))',
      "'id' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
    ),
    rule(
      '!self.all(x, has(x.name) && (has(x.tags) || has(x.id)))',
      "'name' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
    ),
  ],
});

/** One subnet selector term. */
export const SubnetSelectorTermSchema = Type.Object({
  id: Type.Optional(Str({ pattern: 'subnet-[0-9a-z]+' })),
  tags: Type.Optional(selectorTags()),
});

/** `spec.subnetSelectorTerms`. */
export const SubnetSelectorTermsSchema = Type.Array(SubnetSelectorTermSchema, {
  maxItems: 30,
  'x-kubernetes-validations': [
    rule('self.size() != 0', 'subnetSelectorTerms cannot be empty'),
    rule('self.all(x, has(x.tags) || has(x.id))', "expected at least one, got none, ['tags', 'id']"),
    rule(
      '!self.all(x, has(x.id) && has(x.tags))',
      "'id' is mutually exclusive, cannot be set with a combination of other fields in a subnet selector term",
    ),
  ],
});

/** An AMI selector term. */
export type AMISelectorTerm = Static<typeof AMISelectorTermSchema>;
/** A subnet selector term. */
export type SubnetSelectorTerm = Static<typeof SubnetSelectorTermSchema>;
/** A security group selector term. */
export type SecurityGroupSelectorTerm = Static<typeof SecurityGroupSelectorTermSchema>;
/** A capacity reservation selector term. */
export type CapacityReservationSelectorTerm = Static<typeof CapacityReservationSelectorTermSchema>;
