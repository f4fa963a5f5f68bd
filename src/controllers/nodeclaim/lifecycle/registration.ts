import {
  Annotations,
  ConditionTypes,
  Finalizers,
  isKnownEphemeralTaintKey,
  KarpenterApiVersion,
  Labels,
  UnregisteredTaint,
  type Taint,
  ConditionReasons,
} from '../../../api/index.js';
import { formatDuration } from '../../../settings/duration.js';
import { Resources, updateWithRetry, type Node } from '../../../kube/index.js';
import { isTrue, setCondition } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodesFor } from './node-lookup.js';
import type { Phase, PhaseResult, StoredNodeClaim } from './phase.js';
import { hasTaint, sameTaint, taintList } from './taint-set.js';

/**
 * Registration: adopts the Node carrying the NodeClaim's providerID (condition `Registered`). The Node is
 * written once, conditionally on the resourceVersion the change was computed from, adding only Tenon's labels,
 * taints, owner reference and finalizer and removing only `karpenter.sh/unregistered`; on a conflict the change
 * is recomputed from a fresh read, so a taint another agent removed meanwhile is never put back (S1).
 */
export class RegistrationPhase implements Phase {
  readonly name = 'registration';
  /** Creates the phase. */
  constructor(private readonly ctx: ControllerContext) {}

  /** Registers the NodeClaim once its Node appears. */
  async reconcile(nc: StoredNodeClaim): Promise<PhaseResult> {
    const status = (nc.status ??= {});
    if (isTrue(status.conditions, ConditionTypes.registered)) return {};
    const now = this.ctx.clock.now();
    if (!isTrue(status.conditions, ConditionTypes.launched)) {
      status.conditions = setCondition(
        status.conditions,
        {
          type: ConditionTypes.registered,
          status: 'Unknown',
          reason: ConditionReasons.awaitingLaunch,
          message: 'waiting for the instance to launch',
        },
        { now },
      );
      return {};
    }
    const nodes = nodesFor(this.ctx.informers, nc);
    const node = nodes[0];
    if (!node) {
      const message = `no Node with providerID ${status.providerID} has registered yet`;
      status.conditions = setCondition(
        status.conditions,
        { type: ConditionTypes.registered, status: 'Unknown', reason: ConditionReasons.nodeNotFound, message },
        { now },
      );
      return {};
    }
    if (nodes.length > 1) {
      const message = `${nodes.length} Nodes carry providerID ${status.providerID}: ${nodes.map((n) => n.metadata.name).join(', ')}`;
      status.conditions = setCondition(
        status.conditions,
        { type: ConditionTypes.registered, status: 'False', reason: ConditionReasons.multipleNodesFound, message },
        { now },
      );
      return { requeueAfter: 30_000 };
    }
    const adopted = await this.adopt(nc, node);
    status.nodeName = adopted.metadata.name;
    status.conditions = setCondition(
      status.conditions,
      { type: ConditionTypes.registered, status: 'True', reason: ConditionReasons.registered },
      { now },
    );
    this.ctx.metrics.nodesCreated.inc({
      nodepool: nc.metadata.labels?.[Labels.nodePool] ?? '',
      zone: nc.metadata.labels?.[Labels.zone] ?? '',
    });
    this.ctx.log.info(
      {
        controller: 'nodeclaim.lifecycle',
        NodeClaim: { name: nc.metadata.name },
        Node: { name: adopted.metadata.name },
        'provider-id': status.providerID,
      },
      'registered nodeclaim',
    );
    return {};
  }

  private async adopt(nc: StoredNodeClaim, node: Node): Promise<Node> {
    let firstSight: Taint[] | undefined;
    const written = await updateWithRetry<Node>({
      client: this.ctx.client,
      resource: Resources.nodes,
      ref: { name: node.metadata.name ?? '' },
      current: node,
      mutate: (fresh) => {
        // Taints are applied only at the first adoption: once `karpenter.sh/registered` is on the Node, never again.
        if (fresh.metadata.labels?.[Labels.registered] === 'true') return ownerOnly(fresh, nc);
        firstSight = fresh.spec?.taints ?? [];
        return adoptedNode(fresh, nc);
      },
    });
    if (firstSight) await this.reportTaints(nc, written, firstSight);
    return written;
  }

  private async reportTaints(nc: StoredNodeClaim, node: Node, observed: Taint[]): Promise<void> {
    const name = node.metadata.name ?? '';
    if (!hasTaint(observed, UnregisteredTaint)) {
      const age = node.metadata.creationTimestamp
        ? ` ${formatDuration(this.ctx.clock.now() - Date.parse(node.metadata.creationTimestamp))} after it registered`
        : '';
      await this.ctx.recorder.publish(nc, {
        type: 'Warning',
        reason: EventReasons.unregisteredTaintMissing,
        message: `Node ${name} registered without the karpenter.sh/unregistered:NoExecute taint; adopted it anyway${age}. Likely cause: the EC2NodeClass userData sets --register-with-taints (or registerWithTaints / node-taints), which replaces the taint list Tenon generates; use NodePool taints or startupTaints instead (see \`tenon lint\`).`,
      });
    }
    const expected = [UnregisteredTaint, ...(nc.spec.taints ?? []), ...(nc.spec.startupTaints ?? [])] as Taint[];
    const relevant = observed.filter((t) => !isKnownEphemeralTaintKey(t.key) || t.key === UnregisteredTaint.key);
    const missing = expected.filter((t) => !hasTaint(relevant, t));
    const extra = relevant.filter((t) => !expected.some((e) => sameTaint(e, t)));
    if (missing.length || extra.length) {
      await this.ctx.recorder.publish(nc, {
        type: 'Warning',
        reason: EventReasons.unexpectedTaints,
        message: `Node ${name} registered with taints other than expected: expected ${taintList(expected)}; observed ${taintList(relevant)}`,
      });
    }
  }
}

function ownerOnly(fresh: Node, nc: StoredNodeClaim): Node | undefined {
  const owned = fresh.metadata.ownerReferences?.some((o) => o.uid === nc.metadata.uid);
  const finalized = fresh.metadata.finalizers?.includes(Finalizers.termination);
  if (owned && finalized) return undefined;
  return withOwnership(fresh, nc);
}

function withOwnership(node: Node, nc: StoredNodeClaim): Node {
  const m = node.metadata;
  if (!m.ownerReferences?.some((o) => o.uid === nc.metadata.uid)) {
    m.ownerReferences = [
      ...(m.ownerReferences ?? []),
      {
        apiVersion: KarpenterApiVersion,
        kind: 'NodeClaim',
        name: nc.metadata.name ?? '',
        uid: nc.metadata.uid ?? '',
        blockOwnerDeletion: true,
      },
    ];
  }
  if (!m.finalizers?.includes(Finalizers.termination)) m.finalizers = [...(m.finalizers ?? []), Finalizers.termination];
  return node;
}

function adoptedNode(fresh: Node, nc: StoredNodeClaim): Node {
  const node = withOwnership(fresh, nc);
  node.metadata.labels = { ...node.metadata.labels, ...nc.metadata.labels, [Labels.registered]: 'true' };
  const hashAnnotations = Object.entries(nc.metadata.annotations ?? {}).filter(([k]) => k === Annotations.nodePoolHash);
  if (hashAnnotations.length)
    node.metadata.annotations = { ...node.metadata.annotations, ...Object.fromEntries(hashAnnotations) };
  const spec = (node.spec ??= {});
  const registeredAsGenerated = hasTaint(spec.taints, UnregisteredTaint);
  const taints = (spec.taints ?? []).filter((t) => !sameTaint(t, UnregisteredTaint));
  // A Node that registered with the generated taint list also got the startup taints from it; if one is gone
  // now, its owner (e.g. a DaemonSet) removed it and adding it back would strand the node (S1). Only when the
  // user's userData replaced the list (no registration taint) are missing startup taints added here.
  const wanted = [
    ...(nc.spec.taints ?? []),
    ...(registeredAsGenerated ? [] : (nc.spec.startupTaints ?? [])),
  ] as Taint[];
  for (const t of wanted) if (!hasTaint(taints, t)) taints.push(t);
  spec.taints = taints;
  return node;
}
