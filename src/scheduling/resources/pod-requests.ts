/**
 * A pod's effective requests, as the kube-scheduler computes them: the larger of the running containers
 * (plus sidecars) and each init container (plus the sidecars started before it), plus the pod overhead, plus
 * one `pods` slot.
 */
import type { Container, Pod } from '../model.js';
import type { SolveCache } from '../solve-cache.js';
import { addInto, fromResourceList, maxResources, type Resources } from './resources.js';

function requestsOf(c: Container): Resources {
  // A limit without a request defaults the request to the limit (API server defaulting).
  return fromResourceList({ ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) });
}

/**
 * The requests the scheduler charges for `pod` (a fresh copy the caller may change). With a cache they are parsed
 * once per spec object: each batch re-solves every pending pod, and pods of one template may share one spec.
 */
export function podRequests(pod: Pod, cache?: SolveCache): Resources {
  if (!cache) return computeRequests(pod);
  let r = cache.requests.get(pod.spec);
  if (!r) cache.requests.set(pod.spec, (r = computeRequests(pod)));
  return { ...r };
}

function computeRequests(pod: Pod): Resources {
  const running: Resources = {};
  for (const c of pod.spec.containers) addInto(running, requestsOf(c));
  let initPeak: Resources = {};
  const sidecars: Resources = {};
  for (const c of pod.spec.initContainers ?? []) {
    const r = requestsOf(c);
    if (c.restartPolicy === 'Always') {
      addInto(sidecars, r);
      initPeak = maxResources(initPeak, sidecars);
    } else {
      const peak: Resources = { ...sidecars };
      addInto(peak, r);
      initPeak = maxResources(initPeak, peak);
    }
  }
  addInto(running, sidecars);
  const out = maxResources(running, initPeak);
  addInto(out, fromResourceList(pod.spec.overhead));
  out['pods'] = (out['pods'] ?? 0) + 1;
  return out;
}
