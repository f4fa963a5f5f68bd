import { Type } from '@sinclair/typebox';
import { Str, rule } from '../schema/builders.js';

/** `nodeClassRef` as the NodeClaim CRD publishes it: each part must be non-empty. */
export const NodeClaimNodeClassRefSchema = Type.Object({
  group: Str({ pattern: '^[^/]*$', 'x-kubernetes-validations': [rule("self != ''", 'group may not be empty')] }),
  kind: Str({ 'x-kubernetes-validations': [rule("self != ''", 'kind may not be empty')] }),
  name: Str({ 'x-kubernetes-validations': [rule("self != ''", 'name may not be empty')] }),
});

/** `nodeClassRef` as the NodePool CRD publishes it: as a NodeClaim's, and its group and kind never change. */
export const NodeClassRefSchema = Type.Object(NodeClaimNodeClassRefSchema.properties, {
  'x-kubernetes-validations': [
    rule('self.group == oldSelf.group', 'nodeClassRef.group is immutable'),
    rule('self.kind == oldSelf.kind', 'nodeClassRef.kind is immutable'),
  ],
});
