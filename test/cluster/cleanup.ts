/**
 * Empties the real control plane between scenarios: workloads, pods, Tenon's objects, nodes, volumes, leases and
 * Events go, finalizers included (the playground that would have removed them has stopped), and the call returns
 * only once they are gone. A scenario that failed half-way leaves nothing the next one could trip over, and the
 * plane does not have to be restarted (which costs far more than this).
 */
import {
  collectionPath,
  KubeApiError,
  Resources,
  type KubeClient,
  type KubeObject,
  type ResourceType,
} from '../../src/kube/index.js';

const apps = (kind: string, plural: string): ResourceType => ({
  group: 'apps',
  version: 'v1',
  kind,
  plural,
  namespaced: true,
});

/** Owners first, so the controller-manager does not make new pods while the old ones go. */
const namespacedKinds: readonly ResourceType[] = [
  Resources.deployments,
  apps('StatefulSet', 'statefulsets'),
  Resources.daemonSets,
  { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true },
  Resources.replicaSets,
  Resources.podDisruptionBudgets,
  Resources.capacityBuffers,
  Resources.pods,
  Resources.persistentVolumeClaims,
];

const clusterKinds: readonly ResourceType[] = [
  Resources.nodePools,
  Resources.nodeClaims,
  Resources.nodeOverlays,
  Resources.ec2NodeClasses,
  Resources.nodes,
  Resources.volumeAttachments,
  Resources.persistentVolumes,
  Resources.storageClasses,
  Resources.csiNodes,
];

/** Namespaces the control plane made itself and keeps. */
const systemNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** Kinds a cluster may not serve (no CRD installed): nothing to clean. */
function ignoreNotFound(e: unknown): void {
  if (KubeApiError.is(e) && e.code === 404) return;
  throw e;
}

async function deleteCollection(client: KubeClient, rt: ResourceType, namespace?: string): Promise<void> {
  await client
    .call(`deletecollection ${rt.plural}`, {
      method: 'DELETE',
      path: collectionPath(rt, namespace),
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, propagationPolicy: 'Background' },
    })
    .catch(ignoreNotFound);
}

async function remaining(client: KubeClient, rt: ResourceType): Promise<KubeObject[]> {
  try {
    return (await client.list(rt)).items;
  } catch (e) {
    ignoreNotFound(e);
    return [];
  }
}

/** Drops the finalizers of whatever of `rt` is still there (nobody is left to remove them). */
async function releaseFinalizers(client: KubeClient, rt: ResourceType): Promise<void> {
  for (const o of await remaining(client, rt)) {
    if (!o.metadata.finalizers?.length) continue;
    const ref = { name: o.metadata.name ?? '', namespace: o.metadata.namespace };
    await client.patch(rt, ref, { metadata: { finalizers: null } }).catch(ignoreNotFound);
  }
}

async function namespaces(client: KubeClient): Promise<string[]> {
  return (await client.list(Resources.namespaces)).items.map((n) => n.metadata.name ?? '');
}

/** What is left of `kinds`, and namespaces other than the system ones, as `Kind namespace/name`. */
async function leftovers(client: KubeClient, kinds: readonly ResourceType[]): Promise<string[]> {
  const left: string[] = [];
  for (const rt of kinds)
    for (const o of await remaining(client, rt))
      left.push(`${rt.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name ?? ''}`);
  for (const ns of await namespaces(client)) if (!systemNamespaces.has(ns)) left.push(`Namespace ${ns}`);
  return left;
}

/** Waits until no object of `kinds` is left; throws naming what stayed after `timeoutMs`. */
async function untilGone(client: KubeClient, kinds: readonly ResourceType[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await leftovers(client, kinds);
    if (left.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`cleaning the cluster: still there after ${timeoutMs / 1000} s: ${left.join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Empties the cluster (see the module comment); throws naming what would not go within `timeoutMs`. */
export async function emptyCluster(client: KubeClient, timeoutMs = 60_000): Promise<void> {
  const all = await namespaces(client);
  for (const rt of namespacedKinds) for (const ns of all) await deleteCollection(client, rt, ns);
  for (const rt of clusterKinds) await deleteCollection(client, rt);
  for (const rt of [...namespacedKinds, ...clusterKinds]) await releaseFinalizers(client, rt);
  for (const ns of all.filter((n) => !systemNamespaces.has(n)))
    await client.delete(Resources.namespaces, { name: ns }).catch(ignoreNotFound);
  await untilGone(client, [...namespacedKinds, ...clusterKinds], timeoutMs);
  // Last: the Events the deletions above caused go too, and the kubelets' leases.
  await deleteCollection(client, Resources.leases, 'kube-node-lease');
  for (const ns of await namespaces(client)) await deleteCollection(client, Resources.events, ns);
}
