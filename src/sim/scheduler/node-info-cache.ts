/**
 * kube-scheduler's scheduler cache: every node's NodeInfo kept from pod and node events. A cycle used to rebuild
 * every NodeInfo from the informer (O(pods) per scheduled pod); now only the NodeInfo of a node whose pods or object
 * changed is rebuilt, and an unchanged one is the same object from cycle to cycle.
 */
import { keyOf, type Node, type Pod } from '../../kube/index.js';
import { nodeInfo, type NodeInfo } from './node-info.js';
import { occupiesNode } from './sched-pod.js';

/** The NodeInfos of the live nodes, maintained incrementally from informer events. */
export class NodeInfoCache {
  private readonly nodes = new Map<string, Node>();
  /** Pods occupying each node, by key, in the order the informer last stored them (as its node index keeps them). */
  private readonly podsByNode = new Map<string, Map<string, Pod>>();
  private readonly nodeOfPod = new Map<string, string>();
  private readonly infos = new Map<string, NodeInfo>();
  private sortedNames: string[] | undefined;

  /** Records a pod's add or update: it occupies its node only while bound and not finished. */
  setPod(pod: Pod): void {
    const key = keyOf(pod);
    this.deletePod(key);
    const node = pod.spec.nodeName;
    if (!node || !occupiesNode(pod)) return;
    let pods = this.podsByNode.get(node);
    if (!pods) this.podsByNode.set(node, (pods = new Map()));
    pods.set(key, pod);
    this.nodeOfPod.set(key, node);
    this.infos.delete(node);
  }

  /** Records a pod's deletion. */
  deletePod(key: string): void {
    const node = this.nodeOfPod.get(key);
    if (node === undefined) return;
    this.nodeOfPod.delete(key);
    const pods = this.podsByNode.get(node);
    pods?.delete(key);
    if (pods?.size === 0) this.podsByNode.delete(node);
    this.infos.delete(node);
  }

  /** Records a node's add or update. */
  setNode(node: Node): void {
    const name = node.metadata.name ?? '';
    if (!this.nodes.has(name)) this.sortedNames = undefined;
    this.nodes.set(name, node);
    this.infos.delete(name);
  }

  /** Records a node's deletion. */
  deleteNode(name: string): void {
    this.nodes.delete(name);
    this.infos.delete(name);
    this.sortedNames = undefined;
  }

  /** The NodeInfos of the nodes not being deleted, by name; shared objects the caller must not change. */
  list(): NodeInfo[] {
    this.sortedNames ??= [...this.nodes.keys()].sort((a, b) => (a < b ? -1 : 1));
    const out: NodeInfo[] = [];
    for (const name of this.sortedNames) {
      const node = this.nodes.get(name);
      if (!node || node.metadata.deletionTimestamp) continue;
      let info = this.infos.get(name);
      if (!info) this.infos.set(name, (info = nodeInfo(node, [...(this.podsByNode.get(name)?.values() ?? [])])));
      out.push(info);
    }
    return out;
  }
}
