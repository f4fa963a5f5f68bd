/**
 * The playground's informer transform: string values interned and repeating parts (labels, a template's pod
 * spec, conditions) shared and frozen across cached objects, so one process can hold a large simulated cluster.
 * Production informers do not use it: they cache objects as parsed.
 */
import type { ObjectTransform } from '../../kube/index.js';
import { StringInterner } from '../world/interned-strings.js';
import { SharedSubtrees } from './shared-subtrees.js';

/** A transform with its own tables, for every informer of one process (pods, nodes and events repeat each other's values). */
export function objectSharing(): ObjectTransform {
  const interner = new StringInterner();
  const subtrees = new SharedSubtrees();
  return (obj) => {
    interner.internValues(obj);
    subtrees.shareParts(obj);
  };
}
