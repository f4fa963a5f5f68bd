/**
 * When the drift hash scheme changes (a new `ec2nodeclass-hash-version`), the class's NodeClaims are re-stamped
 * with the new hash instead of being compared across schemes, as Karpenter's hash controller does: a NodeClaim
 * already Drifted keeps its old hash (it stays drifted), every other one takes the class's current hash.
 */
import { Annotations, ConditionTypes, type NodeClaim } from '../../../../api/index.js';
import { ignoreNotFound, Resources, type KubeClient, type KubeObject } from '../../../../kube/index.js';

/** Re-stamps the class's NodeClaims stamped with another hash version; returns how many were patched. */
export async function restampNodeClaims(input: {
  client: KubeClient;
  nodeClassName: string;
  annotations: Record<string, string>;
}): Promise<number> {
  const version = input.annotations[Annotations.nodeClassHashVersion];
  const hash = input.annotations[Annotations.nodeClassHash];
  if (version === undefined || hash === undefined) return 0;
  const claims = await input.client.list<NodeClaim & KubeObject>(Resources.nodeClaims);
  let patched = 0;
  for (const nc of claims.items) {
    if (nc.spec.nodeClassRef.name !== input.nodeClassName) continue;
    const current = nc.metadata.annotations ?? {};
    if (current[Annotations.nodeClassHashVersion] === version) continue;
    const drifted = nc.status?.conditions?.some((c) => c.type === ConditionTypes.drifted && c.status === 'True');
    const annotations = {
      [Annotations.nodeClassHashVersion]: version,
      ...(drifted ? {} : { [Annotations.nodeClassHash]: hash }),
    };
    await input.client
      .patch(Resources.nodeClaims, { name: nc.metadata.name ?? '' }, { metadata: { annotations } })
      .catch(ignoreNotFound);
    patched++;
  }
  return patched;
}
