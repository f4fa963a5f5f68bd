/** k8s.io/apimachinery meta/v1 messages that the kinds' messages share. */
import { message, type MessageSpec } from './schema.js';

/** metav1.OwnerReference. */
export const ownerReference: MessageSpec = message('OwnerReference', {
  1: { name: 'kind', type: 'string' },
  3: { name: 'name', type: 'string' },
  4: { name: 'uid', type: 'string' },
  5: { name: 'apiVersion', type: 'string' },
  6: { name: 'controller', type: 'bool', keepZero: true },
  7: { name: 'blockOwnerDeletion', type: 'bool', keepZero: true },
});

/** metav1.ObjectMeta (the fields a client may set; server-owned ones arrive empty). */
export const objectMeta: MessageSpec = message('ObjectMeta', {
  1: { name: 'name', type: 'string' },
  2: { name: 'generateName', type: 'string' },
  3: { name: 'namespace', type: 'string' },
  4: { name: 'selfLink', type: 'string' },
  5: { name: 'uid', type: 'string' },
  6: { name: 'resourceVersion', type: 'string' },
  7: { name: 'generation', type: 'int' },
  8: { name: 'creationTimestamp', type: 'time' },
  9: { name: 'deletionTimestamp', type: 'time' },
  10: { name: 'deletionGracePeriodSeconds', type: 'int' },
  11: { name: 'labels', type: 'string', map: true },
  12: { name: 'annotations', type: 'string', map: true },
  13: { name: 'ownerReferences', type: ownerReference, list: true },
  14: { name: 'finalizers', type: 'string', list: true },
});

/** metav1.LabelSelectorRequirement. */
export const labelSelectorRequirement: MessageSpec = message('LabelSelectorRequirement', {
  1: { name: 'key', type: 'string' },
  2: { name: 'operator', type: 'string' },
  3: { name: 'values', type: 'string', list: true },
});

/** metav1.LabelSelector. */
export const labelSelector: MessageSpec = message('LabelSelector', {
  1: { name: 'matchLabels', type: 'string', map: true },
  2: { name: 'matchExpressions', type: labelSelectorRequirement, list: true },
});
