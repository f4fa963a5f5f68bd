/**
 * Explains a pod: running, bound, waiting for an in-flight NodeClaim, or blocked; for a blocked pod the solver is
 * run for it against the snapshot (existing nodes, in-flight NodeClaims, the NodePools that can launch), and each
 * NodePool's finding is computed with numbers and units. The closest NodePool's cause is the headline.
 */
import { Labels } from '../api/index.js';
import type { Node, Pod } from '../kube/index.js';
import { solve, type SchedulingResult, type UnplacedReason, type VolumeInfo } from '../scheduling/index.js';
import type { StoredNodeClaim } from '../state/informers.js';
import type { ExplainContext } from './context.js';
import type { Explanation } from './model.js';
import { stepOf } from './nodeclaim-step.js';
import { waitAdvice } from './nodeclaim.js';
import { podFacts } from './pod-facts.js';
import { diagnose } from './diagnose.js';
import { schedulingInput } from './scheduling-view.js';
import { nominationTarget, unexpectedTaint } from './pod-nominated.js';
import { keyOfPod, timeOf } from './snapshot.js';
import { duration, hourly } from './units.js';

function base(key: string, state: string, summary: string, extra: Partial<Explanation> = {}): Explanation {
  return { kind: 'pod', name: key, state, summary, details: [], explained: true, ...extra };
}

function placedPod(pod: Pod, key: string, ctx: ExplainContext): Explanation {
  const nodeName = pod.spec.nodeName ?? '';
  const node = ctx.snapshot.nodes.find((n) => n.metadata.name === nodeName);
  const nc = node ? ctx.index.claimOf(node) : undefined;
  const where = `node \`${nodeName}\`${nc ? ` (NodeClaim \`${nc.metadata.name ?? ''}\`, NodePool \`${nc.metadata.labels?.[Labels.nodePool] ?? ''}\`, ${node?.metadata.labels?.[Labels.instanceType] ?? ''})` : ''}`;
  const phase = pod.status?.phase ?? 'Pending';
  if (phase === 'Running') return base(key, 'Running', `Running on ${where}`);
  if (phase === 'Succeeded' || phase === 'Failed') return base(key, phase, `${phase} on ${where}`);
  return base(key, 'Bound', `bound to ${where}; the kubelet is starting its containers`);
}

function nominatedNodeClaim(pod: Pod, ctx: ExplainContext): StoredNodeClaim | undefined {
  const nc = nominationTarget(pod, ctx);
  return nc && !ctx.index.nodeOf(nc) ? nc : undefined;
}

function taintedNomination(pod: Pod, key: string, ctx: ExplainContext): Explanation | undefined {
  const nc = nominationTarget(pod, ctx);
  const node = nc ? ctx.index.nodeOf(nc) : undefined;
  const found = nc && node ? unexpectedTaint(pod, nc, node, ctx) : undefined;
  return found ? base(key, 'Pending', found.cause.message, { cause: found.cause, fix: found.fix }) : undefined;
}

function waitingFor(key: string, nc: StoredNodeClaim, ctx: ExplainContext): Explanation {
  const created = timeOf(nc.metadata.creationTimestamp) ?? ctx.now;
  const age = ctx.now - created;
  const left = ctx.readyMs - age;
  const step = stepOf(nc);
  const name = nc.metadata.name ?? '';
  const eta =
    left > 0
      ? `expected Ready in ~${duration(left)}`
      : `Ready expected ${duration(-left)} ago (typical ${duration(ctx.readyMs)}): run \`tenon explain nodeclaim ${name}\``;
  const advice = waitAdvice(ctx, nc);
  const summary = `waiting for NodeClaim \`${name}\` (NodePool \`${nc.metadata.labels?.[Labels.nodePool] ?? ''}\`), ${step.name.toLowerCase()} for ${duration(age)}, ${eta}`;
  return base(key, 'WaitingForNodeClaim', summary, {
    cause: {
      constraint: 'in-flight',
      object: `NodeClaim/${name}`,
      numbers: { age: duration(age), step: step.name, expectedReadyIn: duration(Math.max(0, left)) },
      message: summary,
    },
    details: [stepLine(nc), ...(advice.detail ? [advice.detail] : [])],
    ...(advice.fix ? { fix: advice.fix } : {}),
  });
}

function stepLine(nc: StoredNodeClaim): string {
  const step = stepOf(nc);
  const w = step.waitingOn;
  return `NodeClaim \`${nc.metadata.name ?? ''}\` step ${step.name}${w ? `, waiting on ${w.type}${w.message ? ` (${w.message})` : ''}` : ''}`;
}

function notReadyYet(key: string, name: string, ready: boolean, nc: StoredNodeClaim | undefined): Explanation {
  const what = ready ? 'initialized' : 'Ready';
  return base(key, 'WaitingForNode', `waiting for node \`${name}\` to become ${what}; it has room for the pod`, {
    cause: {
      constraint: 'in-flight',
      object: `Node/${name}`,
      numbers: { ready: String(ready) },
      message: `node \`${name}\` has room but is not ${what} yet`,
    },
    details: nc ? [stepLine(nc)] : [],
  });
}

function onExistingNode(key: string, node: Node | undefined, ctx: ExplainContext, name: string): Explanation {
  const ready = node?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  const nc = node ? ctx.index.claimOf(node) : undefined;
  if (!ready || (nc && node?.metadata.labels?.[Labels.initialized] !== 'true')) {
    const e = notReadyYet(key, name, ready, nc);
    const fix = nc ? waitAdvice(ctx, nc).fix : undefined;
    return fix ? { ...e, fix } : e;
  }
  return base(key, 'Schedulable', `fits on node \`${name}\` now; kube-scheduler binds it at its next attempt`, {
    cause: {
      constraint: 'scheduler',
      object: `Node/${name}`,
      numbers: {},
      message: `node \`${name}\` has room for the pod`,
    },
  });
}

function pendingSince(pod: Pod): number | undefined {
  const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  return timeOf(cond?.lastTransitionTime) ?? timeOf(pod.metadata.creationTimestamp);
}

function wouldLaunch(key: string, pod: Pod, result: SchedulingResult, ctx: ExplainContext): Explanation {
  const nc = result.newNodeClaims[0];
  const what = nc
    ? `NodePool \`${nc.nodePool}\` would launch ${nc.cheapest.instanceType} in ${nc.cheapest.zone} (${nc.cheapest.capacityType}, ${hourly(nc.cheapest.price)})`
    : 'a new NodeClaim would hold it';
  const waited = ctx.now - (pendingSince(pod) ?? ctx.now);
  if (waited <= ctx.batchMaxMs + 5_000) {
    return base(key, 'Provisioning', `pending for ${duration(waited)}; ${what} once the batch window closes`, {
      cause: {
        constraint: 'batching',
        object: `NodePool/${nc?.nodePool ?? ''}`,
        numbers: { pendingFor: duration(waited), batchMax: duration(ctx.batchMaxMs) },
        message: what,
      },
    });
  }
  const failures = ctx.snapshot.events.filter(
    (e) =>
      (e.reason === 'InsufficientCapacityError' || e.reason === 'LaunchFailed') &&
      (timeOf(e.lastTimestamp ?? e.eventTime) ?? 0) > ctx.now - 5 * 60_000,
  );
  const last = failures[failures.length - 1];
  if (last) {
    return base(key, 'Provisioning', `${what}, but launches failed recently: ${last.message ?? last.reason ?? ''}`, {
      cause: {
        constraint: 'launch',
        object: `NodeClaim/${last.involvedObject?.name ?? ''}`,
        numbers: { failures: failures.length },
        message: last.message ?? '',
      },
      fix: 'allow more instance types, zones or capacity types; offerings that ran out are tried again after 3 minutes',
    });
  }
  return base(
    key,
    'Pending',
    `unexplained: pending for ${duration(waited)} although ${what}; is the Tenon controller running?`,
    {
      cause: {
        constraint: 'unexplained',
        object: `Pod/${key}`,
        numbers: { pendingFor: duration(waited) },
        message: what,
      },
      fix: 'check that the Tenon controller runs and can reach the API server (its logs say each provisioning pass)',
      explained: false,
    },
  );
}

function blocked(pod: Pod, reasons: readonly UnplacedReason[], ctx: ExplainContext, volumes: VolumeInfo): Explanation {
  const key = keyOfPod(pod);
  const d = diagnose(ctx.pools, podFacts(pod, volumes), reasons);
  const details = [...d.perPool.map((f) => f.cause.message), ...d.others];
  if (!d.head)
    return base(key, 'Pending', `cannot be placed: ${reasons.map((r) => r.message).join('; ')}`, {
      details,
      explained: reasons.length > 0,
    });
  return base(key, 'Pending', d.head.cause.message, { cause: d.head.cause, fix: d.head.fix, details });
}

/** Explains the pod `namespace/name`; undefined when there is no such pod. */
export function explainPod(ctx: ExplainContext, key: string): Explanation | undefined {
  const pod = ctx.snapshot.pods.find((p) => keyOfPod(p) === key);
  if (!pod) return undefined;
  if (pod.spec.nodeName) return placedPod(pod, key, ctx);
  if (pod.metadata.deletionTimestamp) return base(key, 'Terminating', 'being deleted before it was scheduled');
  const nominated = nominatedNodeClaim(pod, ctx);
  if (nominated) return waitingFor(key, nominated, ctx);
  const tainted = taintedNomination(pod, key, ctx);
  if (tainted) return tainted;
  const usable = [...ctx.pools.values()].filter((f) => !f.unusable).map((f) => f.pool);
  const input = schedulingInput(ctx.index, { pods: [pod], nodePools: usable, instanceTypes: ctx.instanceTypes });
  const result = solve(input);
  const claim = result.nominated[0];
  if (claim) {
    const nc = ctx.snapshot.nodeClaims.find((c) => c.metadata.name === claim.nodeClaim);
    if (nc) return waitingFor(key, nc, ctx);
  }
  const existing = result.existingNodes[0];
  if (existing)
    return onExistingNode(
      key,
      ctx.snapshot.nodes.find((n) => n.metadata.name === existing.node),
      ctx,
      existing.node,
    );
  if (result.newNodeClaims.length > 0) return wouldLaunch(key, pod, result, ctx);
  return blocked(pod, result.unplaced[0]?.reasons ?? [], ctx, input.volumes ?? {});
}
