/** Parses resource URLs: `/api/v1[/namespaces/NS]/PLURAL[/NAME[/SUB]]` and the `/apis/GROUP/VERSION` forms. */
import type { ResourceInfo, ResourceRegistry } from '../resources/resource-types.js';
import { ApiError } from '../status.js';

/** A resolved resource request. */
export interface ResourcePath {
  info: ResourceInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** 404 for a resource (or subresource) this server does not serve, naming it so the user knows which. */
export function notServed(path: string, resource: string): ApiError {
  const message = `the server could not find the requested resource (${resource} is not served by this API server)`;
  return new ApiError(404, 'NotFound', message, {
    causes: [{ reason: 'UnexpectedServerResponse', message: `404 page not found: ${path}` }],
  });
}

function resourceName(group: string, version: string, plural: string): string {
  return group ? `${plural}.${group}/${version}` : `${plural}/${version}`;
}

function splitGroupVersion(parts: string[]): { group: string; version: string; rest: string[] } | undefined {
  const legacy = parts[0] === 'api';
  if (!legacy && parts[0] !== 'apis') return undefined;
  const group = legacy ? '' : (parts[1] ?? '');
  const version = legacy ? parts[1] : parts[2];
  const rest = parts.slice(legacy ? 2 : 3);
  return version && rest.length > 0 ? { group, version, rest } : undefined;
}

function resolved(
  path: string,
  info: ResourceInfo,
  at: { namespace?: string; name?: string; subresource?: string },
): ResourcePath {
  const { subresource } = at;
  if (subresource && !info.subresources.some((s) => s.name === subresource))
    throw notServed(path, `${info.plural}/${subresource}`);
  return { info, ...at };
}

// `/namespaces/NS/PLURAL/...`: a namespaced resource, or a subresource of the namespace object itself.
function namespacedPath(
  registry: ResourceRegistry,
  path: string,
  gv: { group: string; version: string; rest: string[] },
): ResourcePath | undefined {
  const { group, version, rest } = gv;
  const info = registry.find(group, version, rest[2] ?? '');
  if (info?.namespaced) return resolved(path, info, { namespace: rest[1], name: rest[3], subresource: rest[4] });
  const ns = group === '' ? registry.find('', version, 'namespaces') : undefined;
  if (ns && rest.length === 3 && ns.subresources.some((s) => s.name === rest[2]))
    return { info: ns, name: rest[1], subresource: rest[2] };
  if (!info) throw notServed(path, resourceName(group, version, rest[2] ?? ''));
  return undefined;
}

/** Resolves a path to its resource, or undefined when the path is not a resource path (discovery). */
export function parseResourcePath(registry: ResourceRegistry, path: string): ResourcePath | undefined {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const gv = splitGroupVersion(parts);
  if (!gv) return undefined;
  const { group, version, rest } = gv;
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3 ? namespacedPath(registry, path, gv) : undefined;
  if (namespaced) return namespaced;
  const info = registry.find(group, version, rest[0] ?? '');
  if (!info) throw notServed(path, resourceName(group, version, rest[0] ?? ''));
  return resolved(path, info, { name: rest[1], subresource: rest[2] });
}
