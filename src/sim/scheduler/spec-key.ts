/**
 * Pod specs as text, for the caches keyed by "pods of one template". Every pod of a Deployment has the same text,
 * so one string is kept per distinct spec rather than one per pod (a large playground would otherwise hold a copy
 * of a few strings per pod).
 */
import type { Pod } from '../../kube/index.js';
import { asSchedPod } from './sched-pod.js';

/** Distinct texts kept; past this the table starts over (texts then in use stay valid, they are only not shared). */
const maxTexts = 10_000;
const texts = new Map<string, string>();

/** The one kept copy of `text`. */
export function intern(text: string): string {
  const kept = texts.get(text);
  if (kept !== undefined) return kept;
  if (texts.size >= maxTexts) texts.clear();
  texts.set(text, text);
  return text;
}

// Keyed by the spec object, which the informer shares among the pods of one template on one node.
const specTexts = new WeakMap<object, string>();

/** The pod's spec as text without its node: pods of one template share it (and their per-node verdicts). */
export function specText(pod: Pod): string {
  let k = specTexts.get(pod.spec);
  if (k === undefined)
    specTexts.set(pod.spec, (k = intern(JSON.stringify({ ...asSchedPod(pod).spec, nodeName: undefined }))));
  return k;
}
