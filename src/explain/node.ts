/**
 * Explains why a node is not consolidated, drifted or expired yet — do-not-disrupt pods, PodDisruptionBudgets that
 * allow no disruption, an active budget that allows none, consolidateAfter not elapsed, the consolidation policy,
 * the disruption controller's last word (no cheaper replacement) — and a NodePool's usage against its limits and
 * what it would launch next.
 */
import { Annotations, ConditionTypes, Labels } from '../api/index.js';
import { budgetActive, budgetNodes, budgetText } from '../controllers/disruption/budgets/budgets.js';
import type { Node, Pod } from '../kube/index.js';
import { compileSelector, type LabelSelector } from '../api/index.js';
import { cheapestOffering } from '../scheduling/index.js';
import { parseDuration } from '../settings/duration.js';
import type { ExplainContext } from './context.js';
import type { Cause, Explanation } from './model.js';
import { healthFinding } from './node-health.js';
import { timeOf, type EventObject } from './snapshot.js';
import { amount, duration, hourly } from './units.js';

interface Blocker {
  cause: Cause;
  fix: string;
}

function blocker(
  constraint: string,
  object: string,
  message: string,
  extra: { numbers?: Cause['numbers']; fix: string },
): Blocker {
  return { cause: { constraint, object, numbers: extra.numbers ?? {}, message }, fix: extra.fix };
}

function doNotDisrupt(node: Node, pods: readonly Pod[]): Blocker[] {
  const out: Blocker[] = [];
  if (node.metadata.annotations?.[Annotations.doNotDisrupt] === 'true')
    out.push(
      blocker('do-not-disrupt', `Node/${node.metadata.name ?? ''}`, `node carries ${Annotations.doNotDisrupt}`, {
        fix: `remove the ${Annotations.doNotDisrupt} annotation from the node`,
      }),
    );
  for (const p of pods) {
    if (p.metadata.annotations?.[Annotations.doNotDisrupt] !== 'true') continue;
    const key = `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
    out.push(
      blocker('do-not-disrupt', `Pod/${key}`, `pod ${key} carries ${Annotations.doNotDisrupt}`, {
        numbers: { pod: key },
        fix: `remove the annotation from pod ${key}, or wait for it to finish`,
      }),
    );
  }
  return out;
}

function pdbBlocker(pdb: ExplainContext['snapshot']['pdbs'][number], covered: readonly Pod[]): Blocker {
  const name = `${pdb.metadata.namespace ?? 'default'}/${pdb.metadata.name ?? ''}`;
  const healthy = pdb.status?.currentHealthy ?? 0;
  const desired = pdb.status?.desiredHealthy ?? 0;
  return blocker(
    'pdb',
    `PodDisruptionBudget/${name}`,
    `PodDisruptionBudget ${name} allows 0 disruptions (${healthy} healthy, ${desired} desired) and covers ${covered.map((p) => p.metadata.name ?? '').join(', ')}`,
    {
      numbers: { disruptionsAllowed: 0, currentHealthy: healthy, desiredHealthy: desired },
      fix: `scale up the pods PodDisruptionBudget ${name} protects, or relax its minAvailable/maxUnavailable`,
    },
  );
}

function pdbBlockers(ctx: ExplainContext, pods: readonly Pod[]): Blocker[] {
  const out: Blocker[] = [];
  for (const pdb of ctx.snapshot.pdbs) {
    if ((pdb.status?.disruptionsAllowed ?? 1) > 0) continue;
    const matches = compileSelector(pdb.spec?.selector as LabelSelector | undefined);
    const hit = pods.filter((p) => p.metadata.namespace === pdb.metadata.namespace && matches(p.metadata.labels ?? {}));
    if (hit.length > 0) out.push(pdbBlocker(pdb, hit));
  }
  return out;
}

function budgetBlockers(ctx: ExplainContext, pool: string): Blocker[] {
  const np = ctx.pools.get(pool)?.pool;
  const nodes = ctx.snapshot.nodeClaims.filter((nc) => nc.metadata.labels?.[Labels.nodePool] === pool).length;
  const out: Blocker[] = [];
  for (const b of np?.spec.disruption?.budgets ?? []) {
    // A NodePool without nodes has nothing a budget could hold back.
    if (nodes === 0 || !budgetActive(b, ctx.now) || budgetNodes(b, nodes) > 0) continue;
    out.push(
      blocker(
        'budget',
        `NodePool/${pool}`,
        `NodePool \`${pool}\` budget ${budgetText(b)} is active now and allows 0 of ${nodes} nodes`,
        {
          numbers: { nodes: b.nodes, poolNodes: nodes },
          fix: `wait for the budget window to end, or change spec.disruption.budgets of NodePool \`${pool}\``,
        },
      ),
    );
  }
  return out;
}

function consolidateAfterMs(ctx: ExplainContext, pool: string): number | undefined {
  const text = ctx.pools.get(pool)?.pool.spec.disruption?.consolidateAfter ?? '0s';
  return text === 'Never' ? undefined : parseDuration(text);
}

function consolidationBlockers(ctx: ExplainContext, node: Node, pool: string): Blocker[] {
  const nc = ctx.index.claimOf(node);
  const after = consolidateAfterMs(ctx, pool);
  if (after === undefined)
    return [
      blocker('consolidate-after', `NodePool/${pool}`, `NodePool \`${pool}\` has consolidateAfter: Never`, {
        fix: 'set a consolidateAfter duration',
      }),
    ];
  if (nc?.status?.conditions?.some((c) => c.type === ConditionTypes.consolidatable && c.status === 'True')) return [];
  const last = timeOf(nc?.status?.lastPodEventTime) ?? timeOf(nc?.metadata.creationTimestamp) ?? ctx.now;
  const left = last + after - ctx.now;
  if (left <= 0) return [];
  return [
    blocker(
      'consolidate-after',
      `NodePool/${pool}`,
      `consolidateAfter ${duration(after)} not elapsed since the last pod event (${duration(left)} left)`,
      { numbers: { consolidateAfter: duration(after), left: duration(left) }, fix: 'wait, or lower consolidateAfter' },
    ),
  ];
}

function lastWordFix(reason: string | undefined, message: string): string {
  if (reason === 'Unconsolidatable') return 'nothing to fix if the fleet is already the cheapest that fits';
  if (/budget/i.test(message))
    return 'wait for the NodePool budget to allow another node, or raise spec.disruption.budgets';
  if (/nominated/i.test(message)) return 'nothing to fix: a pending pod is expected to land on it';
  return 'see the message; the disruption controller retries every pass';
}

function lastWord(ctx: ExplainContext, names: readonly string[]): Blocker[] {
  let e: EventObject | undefined;
  let at = -Infinity;
  for (const x of ctx.snapshot.events) {
    if (x.reason !== 'Unconsolidatable' && x.reason !== 'DisruptionBlocked') continue;
    if (!names.includes(x.involvedObject?.name ?? '')) continue;
    const t = timeOf(x.lastTimestamp ?? x.eventTime ?? x.firstTimestamp) ?? 0;
    if (t >= at) [e, at] = [x, t];
  }
  if (!e) return [];
  const message = e.message ?? '';
  return [
    blocker(
      e.reason === 'Unconsolidatable' ? 'no-cheaper' : 'blocked',
      `Node/${names[0] ?? ''}`,
      `the disruption controller said: ${message}`,
      { fix: lastWordFix(e.reason, message) },
    ),
  ];
}

function lifetime(ctx: ExplainContext, node: Node, pool: string): string[] {
  const nc = ctx.index.claimOf(node);
  const out: string[] = [];
  const drifted = nc?.status?.conditions?.find((c) => c.type === ConditionTypes.drifted && c.status === 'True');
  out.push(drifted ? `drifted (${drifted.reason ?? ''}): it is replaced when budgets allow` : 'not drifted');
  const expire = ctx.pools.get(pool)?.pool.spec.template.spec.expireAfter;
  const ms = expire && expire !== 'Never' ? parseDuration(expire) : undefined;
  const created = timeOf(nc?.metadata.creationTimestamp);
  out.push(
    ms !== undefined && created !== undefined
      ? `expires in ${duration(created + ms - ctx.now)} (expireAfter ${expire ?? ''})`
      : 'never expires (expireAfter Never)',
  );
  return out;
}

/** Explains node `name`; undefined when there is none. */
export function explainNode(ctx: ExplainContext, name: string): Explanation | undefined {
  const node = ctx.snapshot.nodes.find((n) => n.metadata.name === name);
  if (!node) return undefined;
  const pods = ctx.index.podsByNode.get(name) ?? [];
  const nc = ctx.index.claimOf(node);
  const pool = node.metadata.labels?.[Labels.nodePool] ?? '';
  if (!nc)
    return {
      kind: 'node',
      name,
      state: 'Unmanaged',
      summary: 'not launched by Tenon (no NodeClaim has its providerID): Tenon never disrupts it',
      details: [],
      explained: true,
    };
  const blockers = [
    ...doNotDisrupt(node, pods),
    ...pdbBlockers(ctx, pods),
    ...budgetBlockers(ctx, pool),
    ...consolidationBlockers(ctx, node, pool),
    ...lastWord(ctx, [name, nc.metadata.name ?? '']),
  ];
  const facts = [
    ...lifetime(ctx, node, pool),
    `${pods.length} pods, NodePool \`${pool}\`, ${node.metadata.labels?.[Labels.instanceType] ?? ''}`,
  ];
  const health = healthFinding(ctx, node);
  if (health)
    return {
      kind: 'node',
      name,
      state: health.state,
      summary: health.cause.message,
      cause: health.cause,
      fix: health.fix,
      details: [...blockers.map((b) => b.cause.message), ...facts],
      explained: true,
    };
  const details = [...blockers.slice(1).map((b) => b.cause.message), ...facts];
  const head = blockers[0];
  if (!head)
    return {
      kind: 'node',
      name,
      state: 'Disruptable',
      summary:
        'nothing blocks disruption: it is consolidated, drifted or expired as soon as a method finds it worth it',
      details,
      explained: true,
    };
  return {
    kind: 'node',
    name,
    state: 'NotDisrupted',
    summary: head.cause.message,
    cause: head.cause,
    fix: head.fix,
    details,
    explained: true,
  };
}

function nextLaunch(ctx: ExplainContext, pool: string): string {
  const f = ctx.pools.get(pool);
  const types = f ? f.types.filter((t) => t.requirements.intersects(f.requirements) === undefined) : [];
  const cheapest = types.reduce<(typeof types)[number] | undefined>(
    (a, b) => (!a || b.price < a.price ? b : a),
    undefined,
  );
  if (!cheapest) return 'it would launch nothing: it has no instance type with an available offering';
  const o = f ? cheapestOffering(cheapest, f.requirements) : undefined;
  if (!o) return 'it would launch nothing: no offering its requirements allow is available';
  return `next launch for a small pod: ${cheapest.name} in ${o.zone} (${o.capacityType}, ${hourly(o.price)}), ${types.length} instance types allowed`;
}

/** Explains NodePool `name`: readiness, usage against limits, budgets in force, what it would launch next. */
export function explainNodePool(ctx: ExplainContext, name: string): Explanation | undefined {
  const f = ctx.pools.get(name);
  if (!f) return undefined;
  const usage = Object.entries(f.limits ?? {}).map(
    ([k, limit]) =>
      `${k} ${amount(k, f.usage[k] ?? 0)} of ${amount(k, limit)} in use (${Math.round(((f.usage[k] ?? 0) / Math.max(1, limit)) * 100)}%)`,
  );
  const nodes = ctx.snapshot.nodeClaims.filter((nc) => nc.metadata.labels?.[Labels.nodePool] === name).length;
  const details = [
    ...(usage.length ? usage : ['no limits']),
    `${nodes} NodeClaims`,
    ...budgetBlockers(ctx, name).map((b) => b.cause.message),
    nextLaunch(ctx, name),
  ];
  if (f.unusable) {
    const u = f.unusable;
    const cause = {
      constraint: u.constraint,
      object: u.object,
      numbers: { reason: u.reason },
      message: `cannot launch: ${u.object.replace('/', ' `')}\` ${u.message}`,
    };
    return {
      kind: 'nodepool',
      name,
      state: 'NotReady',
      summary: cause.message,
      cause,
      fix: `fix ${u.object.replace('/', ' `')}\``,
      details,
      explained: true,
    };
  }
  return {
    kind: 'nodepool',
    name,
    state: 'Ready',
    summary: usage.length ? usage.join('; ') : `Ready, no limits, ${nodes} NodeClaims`,
    details,
    explained: true,
  };
}
