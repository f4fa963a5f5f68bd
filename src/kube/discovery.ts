import type { KubeClient } from './client.js';
import type { ResourceType } from './resources.js';

interface ApiResourceList {
  resources: Array<{ name: string; kind: string; namespaced: boolean }>;
}

/** Finds where a kind lives from the API server's discovery documents (as kubectl does), caching per group/version. */
export class Discovery {
  private readonly lists = new Map<string, Promise<ApiResourceList>>();

  /** Uses `client` for the discovery requests. */
  constructor(private readonly client: KubeClient) {}

  /** The resource type of `kind` in `apiVersion`; throws naming both when the server does not serve it. */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceType> {
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
    const list = await this.list(group, version);
    const found = list.resources.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!found) throw new Error(`the server does not serve kind "${kind}" in "${apiVersion}"`);
    return { group, version, kind, plural: found.name, namespaced: found.namespaced };
  }

  private list(group: string, version: string): Promise<ApiResourceList> {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    let p = this.lists.get(path);
    if (!p) {
      p = this.client.call<ApiResourceList>(`discover ${path}`, { method: 'GET', path });
      // A failed lookup is not cached: the group may be installed a moment later (a CRD).
      p.catch(() => this.lists.delete(path));
      this.lists.set(path, p);
    }
    return p;
  }
}
