/**
 * Where a CapacityBuffer's pod shape comes from, looked up as the cluster-autoscaler's translators do. A
 * `podTemplateRef` names a PodTemplate. A `scalableRef` is read through the object's `scale` subresource first
 * (any kind that has one, custom resources included): its replicas, and the most recent running pod its selector
 * matches as the shape (what admission made of the pods, sidecars included), or the managed PodTemplate kept
 * from an earlier look when no pod runs; failing that, the template of a kind the autoscaler knows (Deployment,
 * ReplicaSet, StatefulSet, Job by its parallelism).
 */
import type { CapacityBuffer } from '../../api/index.js';
import { matchesRequirements, parseLabelSelectorText } from '../../api/index.js';
import { objectPath, Resources, type KubeClient, type Pod, type ResourceType } from '../../kube/index.js';
import type { ClusterInformers, Scalable } from '../../state/informers.js';
import type { BufferSource, PodShape } from './resolve.js';

/** The PodTemplate the buffer controller keeps for a scalable buffer (upstream's name, trimmed to 253). */
export function managedTemplateName(bufferName: string): string {
  const prefix = 'capacitybuffer-';
  const suffix = '-pod-template';
  return `${prefix}${bufferName.slice(0, 253 - prefix.length - suffix.length)}${suffix}`;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface Scale {
  status?: { replicas?: number; selector?: string };
}

type Workload = Scalable & { spec: { parallelism?: number } };

/** The kinds the autoscaler reads by their own template when the scale path gives no shape, by `group/kind`. */
const supported: Record<string, ResourceType> = {
  'apps/Deployment': Resources.deployments,
  'apps/ReplicaSet': Resources.replicaSets,
  'apps/StatefulSet': Resources.statefulSets,
  'batch/Job': Resources.jobs,
};

/** Reads a supported workload (one get per kind, so the chart's RBAC check sees each). */
function getWorkload(client: KubeClient, kind: string, ref: { name: string; namespace: string }): Promise<Workload> {
  if (kind === 'apps/ReplicaSet') return client.get<Workload>(Resources.replicaSets, ref);
  if (kind === 'apps/StatefulSet') return client.get<Workload>(Resources.statefulSets, ref);
  if (kind === 'batch/Job') return client.get<Workload>(Resources.jobs, ref);
  return client.get<Workload>(Resources.deployments, ref);
}

/** Finds the resource of a group and kind: built-in groups are v1, others through discovery's preferred version. */
async function resourceOf(client: KubeClient, group: string, kind: string): Promise<ResourceType> {
  const known = supported[`${group}/${kind}`];
  if (known) return known;
  const doc = await client.call<{ preferredVersion?: { version?: string } }>(`discover ${group}`, {
    method: 'GET',
    path: `/apis/${group}`,
  });
  const version = doc.preferredVersion?.version ?? 'v1';
  const list = await client.call<{ resources?: Array<{ name: string; kind: string; namespaced: boolean }> }>(
    `discover ${group}/${version}`,
    { method: 'GET', path: `/apis/${group}/${version}` },
  );
  const found = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
  if (!found) throw new Error(`the server does not serve kind "${kind}" in group "${group}"`);
  return { group, version, kind, plural: found.name, namespaced: found.namespaced };
}

/**
 * The pod shape of a running pod: its labels, annotations and spec, unbound and without the service account
 * token volume, whose random name would otherwise rewrite the managed PodTemplate on every look (as upstream).
 */
function shapeOf(pod: Pod): PodShape {
  const spec = structuredClone(pod.spec);
  delete spec.nodeName;
  if (spec.volumes) spec.volumes = spec.volumes.filter((v) => !v.name.startsWith('kube-api-access-'));
  return { metadata: { labels: pod.metadata.labels, annotations: pod.metadata.annotations }, spec };
}

/** The newest running pod of the namespace the selector text matches. */
function newestPod(informers: ClusterInformers, namespace: string, selectorText: string): Pod | undefined {
  const selector = parseLabelSelectorText(selectorText);
  let newest: Pod | undefined;
  for (const p of informers.pods.cache.list()) {
    if (p.metadata.namespace !== namespace || p.metadata.deletionTimestamp || p.status?.phase !== 'Running') continue;
    if (!matchesRequirements(selector, p.metadata.labels)) continue;
    if (!newest || (p.metadata.creationTimestamp ?? '') > (newest.metadata.creationTimestamp ?? '')) newest = p;
  }
  return newest;
}

async function throughScale(
  deps: { client: KubeClient; informers: ClusterInformers },
  buffer: CapacityBuffer,
  ref: NonNullable<CapacityBuffer['spec']['scalableRef']>,
): Promise<BufferSource> {
  const namespace = buffer.metadata?.namespace ?? 'default';
  const name = buffer.metadata?.name ?? '';
  try {
    const rt = await resourceOf(deps.client, ref.apiGroup ?? '', ref.kind);
    const scale = await deps.client.call<Scale>(`get ${ref.kind} ${ref.name} scale`, {
      method: 'GET',
      path: objectPath(rt, { name: ref.name, namespace }, 'scale'),
    });
    const scalableReplicas = scale.status?.replicas ?? 0;
    const newest = newestPod(deps.informers, namespace, scale.status?.selector ?? '');
    if (newest) return { ok: true, template: shapeOf(newest), scalableReplicas };
    const kept = deps.informers.podTemplates.cache.get(`${namespace}/${managedTemplateName(name)}`);
    if (kept) return { ok: true, template: kept.template, scalableReplicas };
    return {
      ok: false,
      message: `Couldn't resolve buffer ${name}, Controller requires to observe a running pod for ScalableRef ${ref.name}`,
    };
  } catch (e) {
    return { ok: false, message: `failed to get scale object: ${errorMessage(e)}` };
  }
}

async function throughTemplate(
  client: KubeClient,
  buffer: CapacityBuffer,
  ref: NonNullable<CapacityBuffer['spec']['scalableRef']>,
): Promise<BufferSource> {
  const kind = `${ref.apiGroup ?? ''}/${ref.kind}`;
  if (!supported[kind]) return { ok: false, message: `kind ${kind} is not supported to use pod template` };
  try {
    const o = await getWorkload(client, kind, { name: ref.name, namespace: buffer.metadata?.namespace ?? 'default' });
    const replicas = kind === 'batch/Job' ? o.spec.parallelism : o.spec.replicas;
    return { ok: true, template: o.spec.template, ...(replicas === undefined ? {} : { scalableReplicas: replicas }) };
  } catch (e) {
    return { ok: false, message: `failed to get ${ref.kind}: ${errorMessage(e)}` };
  }
}

/** Looks up the pod shape (and the scalable object's replicas) a buffer refers to. */
export async function bufferSource(
  deps: { client: KubeClient; informers: ClusterInformers },
  buffer: CapacityBuffer,
): Promise<BufferSource> {
  const namespace = buffer.metadata?.namespace ?? 'default';
  const podTemplate = buffer.spec.podTemplateRef;
  if (podTemplate) {
    const pt = deps.informers.podTemplates.cache.get(`${namespace}/${podTemplate.name}`);
    return pt
      ? { ok: true, template: pt.template }
      : { ok: false, message: `Couldn't get pod template, error: podtemplates "${podTemplate.name}" not found` };
  }
  const ref = buffer.spec.scalableRef;
  if (!ref) return { ok: false, message: 'neither podTemplateRef nor scalableRef is set' };
  const byScale = await throughScale(deps, buffer, ref);
  if (byScale.ok) return byScale;
  const byTemplate = await throughTemplate(deps.client, buffer, ref);
  if (byTemplate.ok) return byTemplate;
  return {
    ok: false,
    message: `Couldn't resolve buffer ${buffer.metadata?.name ?? ''}, error resolving scale object: ${byScale.message}, and error resolving supported objects ${byTemplate.message}`,
  };
}
