/**
 * Strategic merge patch for built-in kinds: lists with a patch merge key merge by it (containers by name,
 * conditions by type, ...), other lists replace; `$patch: delete|replace`, `$setElementOrder/<list>`,
 * `$deleteFromPrimitiveList/<list>` and `$retainKeys` as kubectl sends them.
 */
import { isJson, type Json } from '../types.js';

// Patch merge keys of the list fields Tenon's kinds have (from the Kubernetes API's patchMergeKey tags).
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  env: 'name',
  ports: 'containerPort',
  conditions: 'type',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  ownerReferences: 'uid',
  addresses: 'type',
  // Lists of scalars merged as sets.
  finalizers: '',
};

// Lists whose elements merge only in some parents: Service ports merge by port, container ports by containerPort.
function mergeKeyFor(field: string, parentPath: string): string | undefined {
  if (field === 'ports' && parentPath.endsWith('spec') && !parentPath.includes('containers')) return 'port';
  return mergeKeys[field];
}

function mergeList(base: unknown, patch: unknown[], key: string, order: unknown): unknown[] {
  const out: unknown[] = Array.isArray(base) ? [...base] : [];
  if (key === '') {
    for (const v of patch) if (!out.includes(v)) out.push(v);
    return out;
  }
  for (const item of patch) {
    if (!isJson(item)) continue;
    const idx = out.findIndex((b) => isJson(b) && b[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMerge(out[idx], item, '');
    else out.push(strategicMerge({}, item, ''));
  }
  return Array.isArray(order) ? reorder(out, order, key) : out;
}

function reorder(items: unknown[], order: unknown[], key: string): unknown[] {
  const keyed = (v: unknown): unknown => (isJson(v) ? v[key] : undefined);
  const ranked = order.map((o) => (isJson(o) ? o[key] : o));
  return [...items].sort((a, b) => {
    const ia = ranked.indexOf(keyed(a));
    const ib = ranked.indexOf(keyed(b));
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  });
}

function applyDirectives(out: Json, patch: Json): void {
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith('$deleteFromPrimitiveList/') || !Array.isArray(v)) continue;
    const field = k.slice('$deleteFromPrimitiveList/'.length);
    const cur = out[field];
    if (Array.isArray(cur)) out[field] = cur.filter((x) => !v.includes(x));
  }
}

function mergeField(out: Json, f: { key: string; value: unknown; patch: Json; path: string }): void {
  const { key: k, value: v } = f;
  if (v === null) {
    delete out[k];
    return;
  }
  if (Array.isArray(v)) {
    const key = mergeKeyFor(k, f.path);
    out[k] = key === undefined ? v : mergeList(out[k], v, key, f.patch[`$setElementOrder/${k}`]);
    return;
  }
  if (!isJson(v)) {
    out[k] = v;
    return;
  }
  const merged = strategicMerge(out[k], v, f.path ? `${f.path}.${k}` : k);
  if (merged === undefined) delete out[k];
  else out[k] = merged;
}

/** Applies a strategic merge patch to `base` (which is not changed); returns the merged value. */
export function strategicMerge(base: unknown, patch: unknown, path = ''): unknown {
  if (!isJson(patch)) return patch;
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return rest;
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Json = isJson(base) ? { ...base } : {};
  for (const [k, v] of Object.entries(patch))
    if (!k.startsWith('$')) mergeField(out, { key: k, value: v, patch, path });
  applyDirectives(out, patch);
  if (Array.isArray(patch.$retainKeys))
    for (const k of Object.keys(out)) if (!patch.$retainKeys.includes(k)) delete out[k];
  return out;
}
