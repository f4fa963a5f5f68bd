/**
 * Container resource validation of Pods and of the pod templates of workload kinds, as kube-apiserver does it:
 * no negative quantity, and no request above its limit.
 */
import { compareQuantities, exactQuantity, type ExactQuantity, type FieldError } from '../../api/index.js';
import { isJson, type Json, type KObject } from '../types.js';

function quantityOf(q: unknown): ExactQuantity | undefined {
  return typeof q === 'string' || typeof q === 'number' ? exactQuantity(q) : undefined;
}

function text(q: unknown): string {
  return typeof q === 'string' ? q : String(q);
}

function containerErrors(c: unknown, at: string): FieldError[] {
  const res = isJson(c) && isJson(c.resources) ? c.resources : undefined;
  if (!res) return [];
  const out: FieldError[] = [];
  const requests = isJson(res.requests) ? res.requests : {};
  const limits = isJson(res.limits) ? res.limits : {};
  for (const [kind, list] of [
    ['limits', limits],
    ['requests', requests],
  ] as const)
    for (const [name, q] of Object.entries(list)) {
      const v = quantityOf(q);
      if (v && v.num < 0n) {
        const field = `${at}.resources.${kind}[${name}]`;
        const detail = 'must be greater than or equal to 0';
        out.push({
          type: 'FieldValueInvalid',
          field,
          detail,
          badValue: text(q),
          message: `${field}: Invalid value: ${JSON.stringify(text(q))}: ${detail}`,
        });
      }
    }
  for (const [name, q] of Object.entries(requests)) {
    const [r, l] = [quantityOf(q), quantityOf(limits[name])];
    if (!r || !l || compareQuantities(r, l) <= 0) continue;
    const field = `${at}.resources.requests`;
    const detail = `must be less than or equal to ${name} limit of ${text(limits[name])}`;
    out.push({
      type: 'FieldValueInvalid',
      field,
      detail,
      badValue: text(q),
      message: `${field}: Invalid value: ${JSON.stringify(text(q))}: ${detail}`,
    });
  }
  return out;
}

// Where each kind holds its pod spec.
const podSpecPaths: Readonly<Record<string, string>> = {
  Pod: 'spec',
  PodTemplate: 'template.spec',
  Deployment: 'spec.template.spec',
  ReplicaSet: 'spec.template.spec',
  StatefulSet: 'spec.template.spec',
  DaemonSet: 'spec.template.spec',
  Job: 'spec.template.spec',
  ReplicationController: 'spec.template.spec',
  CronJob: 'spec.jobTemplate.spec.template.spec',
};

/** The pod spec of a Pod or of a workload's pod template, with its field path; undefined for other kinds. */
export function podSpecOf(o: KObject): { spec: Json; at: string } | undefined {
  const at = podSpecPaths[o.kind ?? ''];
  if (!at) return undefined;
  let cur: unknown = o;
  for (const part of at.split('.')) cur = isJson(cur) ? cur[part] : undefined;
  return isJson(cur) ? { spec: cur, at } : undefined;
}

/** Every container of a pod spec (init, regular, ephemeral) with its field path. */
export function containersOf(spec: Json, at: string): Array<{ container: unknown; at: string }> {
  const out: Array<{ container: unknown; at: string }> = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) cs.forEach((c, i) => out.push({ container: c, at: `${at}.${list}[${i}]` }));
  }
  return out;
}

/** Resource errors of the containers of a Pod or pod template (negative quantities, requests over limits). */
export function podResourceErrors(o: KObject): FieldError[] {
  const pod = podSpecOf(o);
  if (!pod) return [];
  return containersOf(pod.spec, pod.at).flatMap((c) => containerErrors(c.container, c.at));
}
