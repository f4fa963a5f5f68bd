/**
 * The Priority admission plugin: a new Pod's `priorityClassName` is resolved to `spec.priority` (and the class's
 * `preemptionPolicy`), a Pod without one gets the global default class's value or 0, and an unknown class is
 * refused, as kube-apiserver does. The two system classes exist even when nobody created them.
 */
import { findObject } from '../storage/commit.js';
import type { ServerState } from '../state.js';
import { forbiddenError } from '../status.js';
import { parseEntry } from '../storage/store.js';
import { isJson, type KObject } from '../types.js';

const systemClasses: Record<string, number> = {
  'system-node-critical': 2_000_001_000,
  'system-cluster-critical': 2_000_000_000,
};

interface Resolved {
  name?: string;
  value: number;
  preemptionPolicy?: unknown;
}

function resolveClass(state: ServerState, name: string | undefined): Resolved | undefined {
  const info = state.registry.find('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (name) {
    const pc = info ? findObject(state, info, undefined, name) : undefined;
    if (pc) return { name, value: typeof pc.value === 'number' ? pc.value : 0, preemptionPolicy: pc.preemptionPolicy };
    const system = systemClasses[name];
    return system === undefined ? undefined : { name, value: system };
  }
  if (!info) return { value: 0 };
  for (const e of state.store.table(info).objects.values()) {
    const pc = parseEntry(e);
    if (pc.globalDefault === true)
      return {
        name: pc.metadata.name,
        value: typeof pc.value === 'number' ? pc.value : 0,
        preemptionPolicy: pc.preemptionPolicy,
      };
  }
  return { value: 0 };
}

/** Sets a new Pod's priority from its PriorityClass; throws Forbidden for a class that does not exist. */
export function admitPodPriority(state: ServerState, pod: KObject): void {
  const spec = pod.spec;
  if (!isJson(spec)) return;
  const name =
    typeof spec.priorityClassName === 'string' && spec.priorityClassName ? spec.priorityClassName : undefined;
  const resolved = resolveClass(state, name);
  if (!resolved) {
    throw forbiddenError(
      { kind: 'Pod', group: '', resource: 'pods', name: pod.metadata.name ?? '' },
      `no PriorityClass with name ${name ?? ''} was found`,
    );
  }
  spec.priority = resolved.value;
  if (resolved.name) spec.priorityClassName = resolved.name;
  if (typeof resolved.preemptionPolicy === 'string') spec.preemptionPolicy = resolved.preemptionPolicy;
}
