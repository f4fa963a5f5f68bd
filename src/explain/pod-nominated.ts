/**
 * The NodeClaim provisioning nominated a pod to (its latest `Nominated` event), and what became of it: still in
 * flight, or registered as a node that carries a taint the pod does not tolerate and the NodeClaim did not ask for
 * (S2: userData that sets registration taints), which leaves the pod pending on a node launched for it.
 */
import { ConditionTypes, isKnownEphemeralTaintKey, type Taint } from '../api/index.js';
import type { Node, Pod } from '../kube/index.js';
import { formatTaint, untoleratedTaint } from '../scheduling/index.js';
import type { StoredNodeClaim } from '../state/informers.js';
import type { ExplainContext } from './context.js';
import type { Cause } from './model.js';
import { timeOf, type EventObject } from './snapshot.js';

function nominationOf(e: EventObject, pod: Pod): { at: number; name: string } | undefined {
  const about = e.involvedObject ?? {};
  if (e.reason !== 'Nominated' || about.name !== pod.metadata.name) return undefined;
  if (about.namespace !== undefined && about.namespace !== pod.metadata.namespace) return undefined;
  const uid = pod.metadata.uid;
  if (uid && about.uid && about.uid !== uid) return undefined;
  const name = /nodeclaim\/(\S+)/.exec(e.message ?? '')?.[1];
  return name ? { at: timeOf(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp) ?? 0, name } : undefined;
}

/** The NodeClaim of the pod's latest nomination, if it still exists and is not being deleted. */
export function nominationTarget(pod: Pod, ctx: ExplainContext): StoredNodeClaim | undefined {
  let latest: { at: number; name: string } | undefined;
  for (const e of ctx.snapshot.events) {
    const n = nominationOf(e, pod);
    if (n && (!latest || n.at >= latest.at)) latest = n;
  }
  const nc = latest ? ctx.snapshot.nodeClaims.find((c) => c.metadata.name === latest?.name) : undefined;
  return nc && !nc.metadata.deletionTimestamp ? nc : undefined;
}

function expected(nc: StoredNodeClaim, t: Taint): boolean {
  return [...(nc.spec.taints ?? []), ...(nc.spec.startupTaints ?? [])].some(
    (x) => x.key === t.key && x.effect === t.effect,
  );
}

function userDataNote(ctx: ExplainContext, nc: StoredNodeClaim): string | undefined {
  const cls = ctx.snapshot.nodeClasses.find((c) => c.metadata.name === nc.spec.nodeClassRef.name);
  const c = cls?.status?.conditions?.find((x) => x.type === ConditionTypes.userDataValid);
  return c?.message && /TAINTS/.test(c.message) ? c.message : undefined;
}

/**
 * The pod was nominated to `nc`, whose node registered with a taint the pod does not tolerate and the NodeClaim
 * did not ask for (ephemeral taints excepted: they go away by themselves).
 */
export function unexpectedTaint(
  pod: Pod,
  nc: StoredNodeClaim,
  node: Node,
  ctx: ExplainContext,
): { cause: Cause; fix: string } | undefined {
  const foreign = (node.spec?.taints ?? []).filter((t) => !isKnownEphemeralTaintKey(t.key) && !expected(nc, t));
  const taint = untoleratedTaint(foreign, pod.spec.tolerations ?? []);
  if (!taint) return undefined;
  const t = formatTaint(taint);
  const nodeName = node.metadata.name ?? '';
  const cls = nc.spec.nodeClassRef.name;
  const lint = userDataNote(ctx, nc);
  const message = `node \`${nodeName}\` (NodeClaim \`${nc.metadata.name ?? ''}\`, launched for this pod) registered with ${t}, which the pod does not tolerate and the NodePool does not set${lint ? `; EC2NodeClass \`${cls}\` userData adds it` : ''}`;
  return {
    cause: {
      constraint: 'unexpected-taint',
      object: `Node/${nodeName}`,
      numbers: { taint: t, nodeClaim: nc.metadata.name ?? '', nodeClass: cls },
      message,
    },
    fix: `add a toleration for ${taint.key} to the pod, or declare the taint in the NodePool (spec.template.spec.taints, or startupTaints if an agent removes it) instead of EC2NodeClass \`${cls}\` userData`,
  };
}
