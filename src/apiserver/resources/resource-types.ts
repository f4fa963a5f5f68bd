/** What the server knows about each resource it serves: names, scope, verbs, subresources, validation. */
import type { JsonSchemaProps, PrinterColumn } from '../../api/index.js';

/** A served subresource (`pods/eviction`), with the kind it answers with. */
export interface SubresourceInfo {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: string[];
}

/** One served resource of one group-version. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: SubresourceInfo[];
  /** Spec changes bump metadata.generation (true for CRDs with a status subresource and most built-ins). */
  hasStatus: boolean;
  /** True for custom resources: merge patch only, schema validation. */
  custom: boolean;
  /** The CRD version's schema, for custom resources. */
  schema?: JsonSchemaProps;
  printerColumns?: PrinterColumn[];
  /** A custom resource's scale subresource: where its replicas live (`.spec.replicas`, `.status.nodes`). */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

/** The verbs of an ordinary read-write resource. */
export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** `apiVersion` text of a resource. */
export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** A registry key: `group/version/plural`. */
export function resourceKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}

/** The group-version-kind key: `group/version/Kind`. */
export function gvkKey(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}/${kind}`;
}

/** Every resource served, by group/version/plural, with lookups by kind and short name. */
export class ResourceRegistry {
  private readonly byKey = new Map<string, ResourceInfo>();
  private listeners: Array<() => void> = [];

  /** Adds or replaces a resource. */
  add(info: ResourceInfo): void {
    this.byKey.set(resourceKey(info.group, info.version, info.plural), info);
    this.changed();
  }

  /** Removes a resource (a deleted CRD). */
  remove(group: string, version: string, plural: string): void {
    if (this.byKey.delete(resourceKey(group, version, plural))) this.changed();
  }

  /** Finds a resource by its URL parts. */
  find(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.byKey.get(resourceKey(group, version, plural));
  }

  /** Finds the resource serving an apiVersion and kind. */
  byKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    for (const r of this.byKey.values()) if (apiVersionOf(r) === apiVersion && r.kind === kind) return r;
    return undefined;
  }

  /** Every resource. */
  all(): ResourceInfo[] {
    return [...this.byKey.values()];
  }

  /** Groups with their versions, in registration order (core group first). */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const r of this.byKey.values()) {
      const versions = out.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      out.set(r.group, versions);
    }
    return out;
  }

  /** Calls `fn` whenever the set of resources changes (discovery caches invalidate). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
