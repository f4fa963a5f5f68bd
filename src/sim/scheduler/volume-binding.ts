/**
 * The VolumeBinding plugin's PreBind: a pod's unbound WaitForFirstConsumer claims get the
 * `volume.kubernetes.io/selected-node` annotation, which tells the provisioner in which node's zone to create
 * the volume. (kube-scheduler then waits for the binding; here the kubelet waits for it instead.)
 */
import type { KubeClient, Pod } from '../../kube/index.js';
import { SimResources, type PersistentVolumeClaim, type StorageClass } from '../world/resources.js';

/** The annotation naming the node a WaitForFirstConsumer claim is provisioned for. */
export const SelectedNodeAnnotation = 'volume.kubernetes.io/selected-node';

/** The names of the PVCs a pod mounts. */
export function claimNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim) out.push(claim);
  }
  return out;
}

/** Annotates the pod's unbound WaitForFirstConsumer claims with the chosen node. */
export async function selectNodeForClaims(
  client: KubeClient,
  input: { pod: Pod; node: string; claims: readonly PersistentVolumeClaim[]; storageClasses: readonly StorageClass[] },
): Promise<void> {
  const ns = input.pod.metadata.namespace ?? 'default';
  for (const name of claimNames(input.pod)) {
    const claim = input.claims.find((c) => c.metadata.namespace === ns && c.metadata.name === name);
    if (!claim || claim.spec.volumeName) continue;
    const sc = input.storageClasses.find((s) => s.metadata.name === claim.spec.storageClassName);
    if (sc?.volumeBindingMode !== 'WaitForFirstConsumer') continue;
    if (claim.metadata.annotations?.[SelectedNodeAnnotation] === input.node) continue;
    await client.patch(
      SimResources.persistentVolumeClaims,
      { name, namespace: ns },
      { metadata: { annotations: { [SelectedNodeAnnotation]: input.node } } },
    );
  }
}
