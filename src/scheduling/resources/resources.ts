/**
 * Resource vectors: resource name -> engine integer (see quantity.ts). Missing names mean zero.
 */
import type { ResourceList } from '../../api/index.js';
import { formatResource, isMilliResource, parseMilli, parseUnits, resourceValue } from './quantity.js';

/** A resource vector in engine integers. */
export type Resources = Record<string, number>;

/** Parses a ResourceList (undefined means empty). */
export function fromResourceList(list: ResourceList | undefined): Resources {
  const out: Resources = {};
  if (!list) return out;
  // The API keeps `cpu: 1` from a manifest as a JSON number; a quantity is its text either way.
  for (const [name, q] of Object.entries(list as Record<string, string | number>))
    out[name] = resourceValue(name, String(q));
  return out;
}

/**
 * Parses NodePool limits: a limit past the engine's integer range (Karpenter's own benchmark sets memory to
 * 10000000Gi) can never be reached, so it saturates instead of failing the solve.
 */
export function fromLimitList(list: ResourceList | undefined): Resources {
  const out: Resources = {};
  for (const [name, q] of Object.entries((list ?? {}) as Record<string, string | number>)) {
    const text = String(q);
    const v = isMilliResource(name) ? parseMilli(text) : parseUnits(text);
    out[name] = v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : resourceValue(name, text);
  }
  return out;
}

/** Formats a vector back to a ResourceList. */
export function toResourceList(r: Resources): ResourceList {
  const out: ResourceList = {};
  for (const [name, v] of Object.entries(r)) out[name] = formatResource(name, v);
  return out;
}

/** a + b, as a new vector. */
export function addResources(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** a += b in place (hot path). */
export function addInto(a: Resources, b: Resources): void {
  for (const k in b) a[k] = (a[k] ?? 0) + (b[k] ?? 0);
}

/** a - b, as a new vector. */
export function subtractResources(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) - v;
  return out;
}

/** Element-wise maximum. */
export function maxResources(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = Math.max(out[k] ?? 0, v);
  return out;
}

/** a = max(a, b) element-wise, in place (hot path). */
export function maxInto(a: Resources, b: Resources): void {
  for (const k in b) {
    const v = b[k] ?? 0;
    if (v > (a[k] ?? 0)) a[k] = v;
  }
}

/**
 * The planning resource that counts a pod's volumes of one CSI driver, against the attach limit an instance type
 * declares for it (Kubernetes once exposed the same limits as node allocatable under this name). Where a limit is
 * not declared (existing nodes: their CSINode is checked instead), the resource is unlimited.
 */
export function attachResource(driver: string): string {
  return `${attachResourcePrefix}${driver}`;
}

const attachResourcePrefix = 'attachable-volumes-csi-';

/** Whether `k` is a planning-only attach resource (see attachResource). */
export function isAttachResource(k: string): boolean {
  return k.startsWith(attachResourcePrefix);
}

/** Whether `need` of `k` is more than `available` holds (an attach resource `available` lacks is unlimited). */
function over(k: string, need: number, available: Resources): boolean {
  const have = available[k];
  if (need <= (have ?? 0)) return false;
  return have !== undefined || !isAttachResource(k);
}

/** The first resource for which `used + extra` exceeds `available`, or undefined when it all fits. */
export function exceeded(used: Resources, extra: Resources, available: Resources): string | undefined {
  for (const k in extra) {
    const need = (extra[k] ?? 0) + (used[k] ?? 0);
    if (need > 0 && over(k, need, available)) return k;
  }
  return undefined;
}

/** True when every resource of `r` is within `available`. */
export function fitsIn(r: Resources, available: Resources): boolean {
  for (const k in r) {
    const v = r[k] ?? 0;
    if (v > 0 && over(k, v, available)) return false;
  }
  return true;
}
