/**
 * Prepared instance types, remembered across passes. Preparing one (requirements from its labels and
 * offerings) is the most expensive step of a pass over a large catalog. Providers hand out the same objects
 * while their own cache holds (the AWS provider recomputes its list every minute or when offerings become
 * unavailable), so the prepared form is kept on the identity of the type's offering list: a new list means a
 * fresh preparation, and nothing is shared between objects that merely have the same name.
 */
import { prepareInstanceType, type InstanceTypeInfo } from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';

const cache = new WeakMap<readonly sched.Offering[], Map<string, InstanceTypeInfo | undefined>>();

/** `prepareInstanceType`, cached on the identity of the type's offering list. */
export function prepared(it: sched.InstanceType): InstanceTypeInfo | undefined {
  let byName = cache.get(it.offerings);
  if (!byName) {
    byName = new Map();
    cache.set(it.offerings, byName);
  }
  if (byName.has(it.name)) return byName.get(it.name);
  const info = prepareInstanceType(it);
  byName.set(it.name, info);
  return info;
}
