/**
 * Karpenter's NodeClaimTemplate.ToNodeClaim: a NodeClaim for one planned bin, named `<nodepool>-<suffix>`,
 * carrying the NodePool's template labels and annotations, its drift hash, the narrowed requirements, the pods'
 * resource requests, the NodePool's taints and startup taints, and an owner reference to the NodePool.
 */
import { Annotations, KarpenterApiVersion, Labels } from '../../api/index.js';
import type { NewNodeClaim } from '../../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../state/informers.js';
import { nodePoolHash, nodePoolHashVersion } from '../nodepool/hash/nodepool-hash.js';

/** The NodeClaim object to create for a planned NodeClaim of `nodePool`. */
export function nodeClaimFor(nodePool: StoredNodePool, planned: NewNodeClaim): StoredNodeClaim {
  const t = nodePool.spec.template;
  const poolName = nodePool.metadata.name ?? '';
  const labels: Record<string, string> = { ...t.metadata?.labels, ...planned.labels, [Labels.nodePool]: poolName };
  // The hostname label names a placeholder bin, not the node-to-be.
  delete labels[Labels.hostname];
  return {
    apiVersion: KarpenterApiVersion,
    kind: 'NodeClaim',
    metadata: {
      generateName: `${poolName}-`,
      labels,
      annotations: {
        ...t.metadata?.annotations,
        [Annotations.nodePoolHash]: nodePoolHash(nodePool),
        [Annotations.nodePoolHashVersion]: nodePoolHashVersion,
      },
      ownerReferences: [
        {
          apiVersion: KarpenterApiVersion,
          kind: 'NodePool',
          name: poolName,
          uid: nodePool.metadata.uid ?? '',
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeClassRef: t.spec.nodeClassRef,
      // Written as planned, Gte/Lte included: the NodeClaim CRD takes every operator the NodePool does (v1.15).
      requirements: planned.requirements,
      resources: { requests: planned.requests },
      taints: t.spec.taints,
      startupTaints: t.spec.startupTaints,
      expireAfter: t.spec.expireAfter,
      terminationGracePeriod: t.spec.terminationGracePeriod,
    },
  };
}
