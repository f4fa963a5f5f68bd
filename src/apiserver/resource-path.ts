/** Parses resource URLs: `/api/v1[/namespaces/NS]/PLURAL[/NAME[/SUB]]` and the `/apis/GROUP/VERSION` forms. */
import type { ResourceInfo, ResourceRegistry } from './resource-types.js';
import { ApiError } from './status.js';

/** A resolved resource request. */
export interface ResourcePath {
  info: ResourceInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
}

function notServed(path: string): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', { causes: [{ reason: 'UnexpectedServerResponse', message: `404 page not found: ${path}` }] });
}

function splitGroupVersion(parts: string[]): { group: string; version: string; rest: string[] } | undefined {
  const legacy = parts[0] === 'api';
  if (!legacy && parts[0] !== 'apis') return undefined;
  const group = legacy ? '' : (parts[1] ?? '');
  const version = legacy ? parts[1] : parts[2];
  const rest = parts.slice(legacy ? 2 : 3);
  return version && rest.length > 0 ? { group, version, rest } : undefined;
}

/** Resolves a path to its resource, or undefined when the path is not a resource path (discovery). */
export function parseResourcePath(registry: ResourceRegistry, path: string): ResourcePath | undefined {
  const parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);
  const gv = splitGroupVersion(parts);
  if (!gv) return undefined;
  const { group, version, rest } = gv;
  // `/namespaces/NS/PLURAL/...` is namespaced unless the path is about the namespace object itself.
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const info = registry.find(group, version, rest[2] ?? '');
    if (info?.namespaced) return { info, namespace: rest[1], name: rest[3], subresource: rest[4] };
    if (rest.length >= 3 && group === '' && !info) {
      const ns = registry.find('', version, 'namespaces');
      if (ns && rest.length === 3) return { info: ns, name: rest[1], subresource: rest[2] };
      throw notServed(path);
    }
  }
  const info = registry.find(group, version, rest[0] ?? '');
  if (!info) throw notServed(path);
  return { info, name: rest[1], subresource: rest[2] };
}
