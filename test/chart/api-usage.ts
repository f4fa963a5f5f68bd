/**
 * The Kubernetes API calls the production code makes, found by reading its sources: informers (list, watch),
 * direct client calls (get, list, create, update, patch, delete), conditional updates (get, update, on the
 * status subresource when asked), evictions and the leader Lease. The simulation is left out: it is not shipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `group/resource[/subresource]` and a verb, as RBAC names them. */
export interface ApiUse {
  resource: string;
  verb: string;
}

/** Production folders whose calls the chart's roles must allow. */
const productionRoots = [
  'src/controllers',
  'src/providers',
  'src/state',
  'src/kube',
  'src/operator',
  'src/cli/commands',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** `Resources.x` names to `group/plural`, read from src/kube/resources.ts. */
function resourceTable(root: string): Map<string, string> {
  const text = readFileSync(join(root, 'src/kube/resources.ts'), 'utf8');
  const table = new Map<string, string>();
  for (const m of text.matchAll(/(\w+): rt\('([^']+)', '\w+', '([^']+)'/g)) {
    const [, key = '', gv = '', plural = ''] = m;
    table.set(key, `${gv.includes('/') ? gv.split('/')[0] : ''}/${plural}`);
  }
  return table;
}

/** Every (resource, verb) the production code uses. */
export function apiUses(root: string): ApiUse[] {
  const table = resourceTable(root);
  const uses = new Map<string, ApiUse>();
  const add = (key: string | undefined, verb: string, sub = ''): void => {
    const resource = key === undefined ? undefined : table.get(key);
    if (resource) uses.set(`${resource}${sub} ${verb}`, { resource: `${resource}${sub}`, verb });
  };
  for (const file of productionRoots.flatMap((r) => sources(join(root, r)))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\.(get|list|create|update|patch|delete)(?:<[^>(]*>)?\(\s*Resources\.(\w+)/g))
      add(m[2], m[1] ?? '');
    for (const m of text.matchAll(
      /make<\w+>\(Resources\.(\w+)|new Informer<\w+>\(\{[^}]*resource: Resources\.(\w+)/g,
    )) {
      add(m[1] ?? m[2], 'list');
      add(m[1] ?? m[2], 'watch');
    }
    // updateWithRetry({ client, resource, ref, subresource?, mutate }): a get, then an update (of status if named).
    for (const m of text.matchAll(/resource: Resources\.(\w+),([\s\S]{0,300}?)mutate/g)) {
      add(m[1], 'get');
      add(m[1], 'update', /subresource: 'status'/.test(m[2] ?? '') ? '/status' : '');
    }
    // A `scale` read through objectPath (CapacityBuffer scalableRef: any kind with a scale subresource).
    if (/objectPath\([^;]*'scale'\)/.test(text)) uses.set('*/*/scale get', { resource: '*/*/scale', verb: 'get' });
    if (/\.evict\(/.test(text)) uses.set('/pods/eviction create', { resource: '/pods/eviction', verb: 'create' });
    if (/= Resources\.leases/.test(text)) for (const verb of ['get', 'create', 'update']) add('leases', verb);
  }
  return [...uses.values()].sort((a, b) => `${a.resource} ${a.verb}`.localeCompare(`${b.resource} ${b.verb}`));
}
