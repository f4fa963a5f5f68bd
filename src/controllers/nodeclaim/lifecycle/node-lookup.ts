import type { Node } from '../../../kube/index.js';
import { Indexes, type ClusterInformers } from '../../../state/informers.js';
import type { StoredNodeClaim } from './phase.js';

/** The Nodes carrying the NodeClaim's providerID (normally zero or one). */
export function nodesFor(informers: ClusterInformers, nc: StoredNodeClaim): Node[] {
  const id = nc.status?.providerID;
  return id ? informers.nodes.cache.byIndex(Indexes.providerID, id) : [];
}
