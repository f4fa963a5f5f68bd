/** The scenario steps that change the cluster: apply manifests, delete an object, scale a workload. */
import { parseAllDocuments } from 'yaml';
import { isAlreadyExists, type Discovery, type KubeClient, type KubeObject } from '../../kube/index.js';
import type { ObjectRef } from './format.js';

/** Where each kind a scenario refers to by kind alone lives. */
const apiVersions: Record<string, string> = {
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ReplicaSet: 'apps/v1',
  Job: 'batch/v1',
  Pod: 'v1',
  Node: 'v1',
  PersistentVolumeClaim: 'v1',
  NodePool: 'karpenter.sh/v1',
  NodeClaim: 'karpenter.sh/v1',
  EC2NodeClass: 'karpenter.k8s.aws/v1',
  NodeOverlay: 'karpenter.sh/v1alpha1',
  CapacityBuffer: 'autoscaling.x-k8s.io/v1beta1',
  PodDisruptionBudget: 'policy/v1',
};

/** The objects of a multi-document YAML text; throws naming the document that is not an object with a kind. */
export function parseManifests(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`document ${i + 1}: not valid YAML: ${doc.errors[0]?.message ?? ''}`);
    const v: unknown = doc.toJS();
    if (v === null || v === undefined) return;
    const o = v as Partial<KubeObject>;
    if (typeof o !== 'object' || !o.apiVersion || !o.kind || !o.metadata)
      throw new Error(`document ${i + 1}: needs apiVersion, kind and metadata`);
    out.push(o as KubeObject);
  });
  return out;
}

/** Creates each object, or replaces it (keeping what the server owns) when it already exists — like `kubectl apply`. */
export async function applyObjects(
  client: KubeClient,
  discovery: Discovery,
  objects: readonly KubeObject[],
): Promise<void> {
  for (const obj of objects) {
    const rt = await discovery.resourceFor(obj.apiVersion ?? '', obj.kind ?? '');
    const body: KubeObject = {
      ...obj,
      metadata: { ...obj.metadata, namespace: rt.namespaced ? (obj.metadata.namespace ?? 'default') : undefined },
    };
    try {
      await client.create(rt, body);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      const current = await client.get(rt, { name: body.metadata.name ?? '', namespace: body.metadata.namespace });
      await client.update(rt, {
        ...current,
        ...body,
        metadata: { ...current.metadata, labels: body.metadata.labels, annotations: body.metadata.annotations },
      });
    }
  }
}

async function resourceOf(
  discovery: Discovery,
  ref: ObjectRef,
): Promise<Awaited<ReturnType<Discovery['resourceFor']>>> {
  const apiVersion = apiVersions[ref.kind];
  if (!apiVersion)
    throw new Error(`kind "${ref.kind}" is not one a scenario can name; known: ${Object.keys(apiVersions).join(', ')}`);
  return discovery.resourceFor(apiVersion, ref.kind);
}

/** Deletes one object as `kubectl delete` does: dependents go in the background (a Job's pods too). */
export async function deleteObject(client: KubeClient, discovery: Discovery, ref: ObjectRef): Promise<void> {
  const rt = await resourceOf(discovery, ref);
  await client.delete(
    rt,
    { name: ref.name, namespace: rt.namespaced ? (ref.namespace ?? 'default') : undefined },
    { propagationPolicy: 'Background' },
  );
}

/** Sets a workload's `spec.replicas`. */
export async function scaleObject(
  client: KubeClient,
  discovery: Discovery,
  ref: ObjectRef & { replicas: number },
): Promise<void> {
  const rt = await resourceOf(discovery, ref);
  await client.patch(
    rt,
    { name: ref.name, namespace: ref.namespace ?? 'default' },
    { spec: { replicas: ref.replicas } },
  );
}
