/** API discovery: legacy (/api, /apis, APIResourceList) and aggregated (apidiscovery.k8s.io v2 and v2beta1). */
import { accept, sendJson, type Ctx } from './http-io.js';
import { apiVersionOf, type ResourceInfo, type ResourceRegistry } from '../resources/resource-types.js';

function apiResource(r: ResourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
  };
  if (r.shortNames.length > 0) out.shortNames = r.shortNames;
  if (r.categories.length > 0) out.categories = r.categories;
  return out;
}

function subResource(r: ResourceInfo, s: ResourceInfo['subresources'][number]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: `${r.plural}/${s.name}`,
    singularName: '',
    namespaced: r.namespaced,
    kind: s.kind,
    verbs: s.verbs,
  };
  if (s.group !== r.group || s.version !== r.version) Object.assign(out, { group: s.group, version: s.version });
  return out;
}

/** The APIResourceList of one group-version. */
export function resourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const rs = registry.all().filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  const resources = rs.flatMap((r) => [apiResource(r), ...r.subresources.map((s) => subResource(r, s))]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

function groupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = [...registry.groups()]
    .filter(([g]) => g !== '')
    .map(([name, versions]) => {
      const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
      return { name, versions: vs, preferredVersion: vs[0] };
    });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

function aggregatedResource(r: ResourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: r.plural,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
  };
  if (r.shortNames.length > 0) out.shortNames = r.shortNames;
  if (r.categories.length > 0) out.categories = r.categories;
  if (r.subresources.length > 0) {
    out.subresources = r.subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group, version: s.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return out;
}

function aggregated(registry: ResourceRegistry, legacy: boolean, version: 'v2' | 'v2beta1'): Record<string, unknown> {
  const items = [...registry.groups()]
    .filter(([g]) => (g === '') === legacy)
    .map(([name, versions]) => ({
      metadata: { name, creationTimestamp: null },
      versions: versions.map((v) => ({
        version: v,
        freshness: 'Current',
        resources: registry
          .all()
          .filter((r) => r.group === name && r.version === v)
          .map(aggregatedResource),
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

// The first aggregated form the client lists in Accept, if any (kubectl parses by the response Content-Type).
function aggregatedVersion(acceptHeader: string): 'v2' | 'v2beta1' | undefined {
  for (const part of acceptHeader.split(',')) {
    if (!part.includes('as=APIGroupDiscoveryList')) continue;
    if (/v=v2beta1/.test(part)) return 'v2beta1';
    if (/v=v2(;|$)/.test(part)) return 'v2';
  }
  return undefined;
}

function serveRoot(ctx: Ctx, legacy: boolean): void {
  const registry = ctx.state.registry;
  const agg = aggregatedVersion(accept(ctx));
  if (agg) {
    const type = `application/json;g=apidiscovery.k8s.io;v=${agg};as=APIGroupDiscoveryList`;
    sendJson(ctx.res, 200, aggregated(registry, legacy, agg), type);
  } else if (legacy)
    sendJson(ctx.res, 200, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
    });
  else sendJson(ctx.res, 200, groupList(registry));
}

function groupVersionPath(parts: string[]): [string, string] | undefined {
  if (parts[0] === 'api' && parts.length === 2) return ['', parts[1] ?? ''];
  if (parts[0] === 'apis' && parts.length === 3) return [parts[1] ?? '', parts[2] ?? ''];
  return undefined;
}

/** Serves /api, /apis and their group-version documents; false when the path is not discovery. */
export function serveDiscovery(ctx: Ctx): boolean {
  const registry = ctx.state.registry;
  const parts = ctx.path.split('/').filter((p) => p !== '');
  if (parts.length === 1 && (parts[0] === 'api' || parts[0] === 'apis')) {
    serveRoot(ctx, parts[0] === 'api');
    return true;
  }
  const gv = groupVersionPath(parts);
  if (gv) {
    const list = resourceList(registry, gv[0] ?? '', gv[1] ?? '');
    if (!list) return false;
    sendJson(ctx.res, 200, list);
    return true;
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const versions = registry.groups().get(parts[1] ?? '');
    if (!versions) return false;
    const vs = versions.map((v) => ({ groupVersion: `${parts[1] ?? ''}/${v}`, version: v }));
    sendJson(ctx.res, 200, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: parts[1],
      versions: vs,
      preferredVersion: vs[0],
    });
    return true;
  }
  return false;
}
