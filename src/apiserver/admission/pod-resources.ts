/**
 * Container resource validation of Pods and of the pod templates of workload kinds, as kube-apiserver does it:
 * no negative quantity, and no request above its limit.
 */
import type { FieldError } from '../../api/index.js';
import { isJson, type Json, type KObject } from '../types.js';

const binaryPower: Readonly<Record<string, number>> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimalExponent: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const quantityParts = /^([+-]?)(\d+\.?\d*|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/** A quantity as an exact fraction num / 10^scale, or undefined when the text is not a quantity. */
function exactQuantity(q: unknown): { num: bigint; scale: number } | undefined {
  const m = quantityParts.exec(typeof q === 'number' ? String(q) : typeof q === 'string' ? q.trim() : '');
  if (!m) return undefined;
  const [, sign = '', digits = '0', suffix, exponent] = m;
  const [whole = '', frac = ''] = digits.split('.');
  let num = BigInt((whole || '0') + frac) * (sign === '-' ? -1n : 1n);
  let scale = frac.length;
  if (suffix !== undefined && suffix in binaryPower) num *= 1n << BigInt(10 * (binaryPower[suffix] ?? 0));
  else scale -= exponent !== undefined ? Number(exponent) : (decimalExponent[suffix ?? ''] ?? 0);
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale };
}

/** a - b as a sign: -1, 0 or 1. */
function compareQuantities(a: { num: bigint; scale: number }, b: { num: bigint; scale: number }): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.num * 10n ** BigInt(scale - a.scale);
  const y = b.num * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
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
      const v = exactQuantity(q);
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
    const [r, l] = [exactQuantity(q), exactQuantity(limits[name])];
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

/** The pod spec of a Pod or of a workload's pod template, with its field path; undefined for other kinds. */
export function podSpecOf(o: KObject): { spec: Json; at: string } | undefined {
  const spec = isJson(o.spec) ? o.spec : undefined;
  const templateSpec = (t: unknown): Json | undefined => (isJson(t) && isJson(t.spec) ? t.spec : undefined);
  switch (o.kind) {
    case 'Pod':
      return spec && { spec, at: 'spec' };
    case 'PodTemplate': {
      const s = templateSpec(o.template);
      return s && { spec: s, at: 'template.spec' };
    }
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController': {
      const s = templateSpec(spec?.template);
      return s && { spec: s, at: 'spec.template.spec' };
    }
    case 'CronJob': {
      const job = isJson(spec?.jobTemplate) ? spec.jobTemplate : undefined;
      const s = templateSpec(isJson(job?.spec) ? job.spec.template : undefined);
      return s && { spec: s, at: 'spec.jobTemplate.spec.template.spec' };
    }
    default:
      return undefined;
  }
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
