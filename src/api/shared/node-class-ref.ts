import { Type } from '@sinclair/typebox';
import { Str, rule } from '../schema/builders.js';

/** `nodeClassRef` as the NodePool CRD publishes it. */
export const NodeClassRefSchema = Type.Object({
  group: Str({ pattern: '^[^/]*$' }),
  kind: Type.String(),
  name: Type.String(),
});

/** `nodeClassRef` as the (newer) NodeClaim CRD publishes it: each part must also be non-empty. */
export const NodeClaimNodeClassRefSchema = Type.Object({
  group: Str({ pattern: '^[^/]*$', 'x-kubernetes-validations': [rule("self != ''", 'group may not be empty')] }),
  kind: Str({ 'x-kubernetes-validations': [rule("self != ''", 'kind may not be empty')] }),
  name: Str({ 'x-kubernetes-validations': [rule("self != ''", 'name may not be empty')] }),
});
