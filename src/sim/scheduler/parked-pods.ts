/**
 * kube-scheduler's unschedulable pods, grouped by equivalence class: pods of one template (same spec, no rule that
 * reads other pods, no volumes) are judged alike on every node, so a node that gains room is checked once per class,
 * not once per pod, and only as many of the class's pods are woken as the node can take.
 */
import type { Pod } from '../../kube/index.js';
import { asSchedPod, readsOtherPods } from './sched-pod.js';
import { intern, specText } from './spec-key.js';

const classKeys = new WeakMap<Pod, string | null>();

/**
 * The pod's equivalence class, or undefined when its feasibility may depend on other pods or on volumes (such a pod
 * is woken by every change, as before classes).
 */
export function classKeyOf(pod: Pod): string | undefined {
  let k = classKeys.get(pod);
  if (k === undefined)
    classKeys.set(
      pod,
      (k = readsOnlyItsNode(pod) ? intern(`${pod.metadata.namespace ?? 'default'}|${specText(pod)}`) : null),
    );
  return k ?? undefined;
}

/** True when the pod's feasibility on a node reads nothing but that node: no rule on other pods, no volume. */
function readsOnlyItsNode(pod: Pod): boolean {
  return !readsOtherPods(pod) && (asSchedPod(pod).spec.volumes ?? []).length === 0;
}

/** Parked pods by class, each class in the order its pods were parked. */
export class ParkedPods {
  private readonly byClass = new Map<string, Set<string>>();
  private readonly classOf = new Map<string, string>();
  /** Parked pods without a class. */
  readonly loners = new Set<string>();

  /** Parks a pod (again), at the end of its class. */
  park(key: string, classKey: string | undefined): void {
    this.remove(key);
    if (classKey === undefined) {
      this.loners.add(key);
      return;
    }
    let set = this.byClass.get(classKey);
    if (!set) this.byClass.set(classKey, (set = new Set()));
    set.add(key);
    this.classOf.set(key, classKey);
  }

  /** Forgets a pod (woken, bound or gone). */
  remove(key: string): void {
    this.loners.delete(key);
    const c = this.classOf.get(key);
    if (c === undefined) return;
    this.classOf.delete(key);
    const set = this.byClass.get(c);
    set?.delete(key);
    if (set?.size === 0) this.byClass.delete(c);
  }

  /** The classes with parked pods and their pods, oldest first. */
  classes(): IterableIterator<[string, ReadonlySet<string>]> {
    return this.byClass.entries();
  }

  /** Takes up to `n` pods of a class, oldest first. */
  take(classKey: string, n: number): string[] {
    const out: string[] = [];
    for (const key of this.byClass.get(classKey) ?? []) {
      if (out.length >= n) break;
      out.push(key);
    }
    for (const key of out) this.remove(key);
    return out;
  }

  /** Takes every parked pod. */
  takeAll(): string[] {
    const out = [...this.loners, ...this.classOf.keys()];
    this.loners.clear();
    this.classOf.clear();
    this.byClass.clear();
    return out;
  }

  /** Takes the pods without a class. */
  takeLoners(): string[] {
    const out = [...this.loners];
    this.loners.clear();
    return out;
  }
}
