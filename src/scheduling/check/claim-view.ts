/**
 * What a new NodeClaim can turn into: each instance-type option with the offerings that the NodeClaim's and the
 * NodePool's requirements allow and that are available. From those the checker derives the possible values of
 * every node label (zone stays open when several zones remain) and checks the options themselves.
 */
import { Labels } from '../../api/index.js';
import type { InstanceType, NewNodeClaim, NodePool, NodeSelectorRequirement, Offering } from '../model.js';
import { amountsOf, type Amounts } from '../rules/oracle-amounts.js';
import { formatRequirement, NodeLabels, valueSatisfies } from '../rules/labels.js';
import type { Violation } from './violation.js';

/** One option of a NodeClaim as the checker sees it. */
export interface ClaimOption {
  name: string;
  allocatable: Amounts;
  capacity: Amounts;
  /** Cheapest launchable offering price. */
  price: number;
}

/** The checker's view of one new NodeClaim. */
export interface ClaimView {
  labels: NodeLabels;
  options: ClaimOption[];
  violations: Violation[];
}

const reservationKey = 'karpenter.k8s.aws/capacity-reservation-id';

function offeringLabels(o: Offering): Record<string, string> {
  const out: Record<string, string> = { [Labels.zone]: o.zone, [Labels.capacityType]: o.capacityType };
  if (o.reservationId !== undefined) out[reservationKey] = o.reservationId;
  return out;
}

function allocatableOf(it: InstanceType): Amounts {
  if (it.allocatable) return amountsOf(it.allocatable);
  const out = amountsOf(it.capacity);
  for (const [k, v] of amountsOf(it.overhead)) out.set(k, (out.get(k) ?? 0n) - v);
  return out;
}

/** Values an instance type's own (multi-valued) requirement allows; '*' stands for "some value". */
function requirementValues(r: NodeSelectorRequirement): (string | undefined)[] {
  if (r.operator === 'In') return r.values ?? [];
  if (r.operator === 'DoesNotExist') return [undefined];
  return ['*'];
}

class Accumulator {
  readonly values = new Map<string, Set<string | undefined>>();
  realizations = 0;
  private readonly seen = new Map<string, number>();

  add(labels: Readonly<Record<string, string | undefined>>, multi: ReadonlyMap<string, (string | undefined)[]>): void {
    this.realizations++;
    for (const [k, v] of Object.entries(labels)) this.put(k, [v]);
    for (const [k, vs] of multi) this.put(k, vs);
  }

  private put(k: string, vs: (string | undefined)[]): void {
    let s = this.values.get(k);
    if (!s) this.values.set(k, (s = new Set()));
    for (const v of vs) s.add(v);
    this.seen.set(k, (this.seen.get(k) ?? 0) + 1);
  }

  /** Keys defined by only some realizations may also be absent. */
  finish(): void {
    for (const [k, n] of this.seen) if (n < this.realizations) this.values.get(k)?.add(undefined);
  }
}

interface Ctx {
  claim: NewNodeClaim;
  target: string;
  reqs: NodeSelectorRequirement[];
  fixed: Record<string, string>;
  violations: Violation[];
}

function optionMulti(ctx: Ctx, it: InstanceType): Map<string, (string | undefined)[]> | undefined {
  const multi = new Map<string, (string | undefined)[]>();
  for (const r of it.requirements ?? []) {
    const allowed = requirementValues(r).filter(
      (v) => v === '*' || ctx.reqs.every((q) => q.key !== r.key || valueSatisfies(q, v)),
    );
    if (allowed.length === 0) {
      ctx.violations.push({
        family: 'requirements',
        target: ctx.target,
        message: `instance type option ${it.name} cannot satisfy the NodeClaim's requirements on ${r.key}`,
      });
      return undefined;
    }
    multi.set(r.key, allowed);
  }
  return multi;
}

function optionLabels(ctx: Ctx, it: InstanceType): Record<string, string> | undefined {
  const labels: Record<string, string> = { ...(it.labels ?? {}), [Labels.instanceType]: it.name };
  for (const [k, v] of Object.entries(labels)) {
    if (ctx.fixed[k] !== undefined && ctx.fixed[k] !== v) {
      ctx.violations.push({
        family: 'requirements',
        target: ctx.target,
        message: `instance type option ${it.name} has ${k}=${v} but the NodeClaim says ${ctx.fixed[k]}`,
      });
      return undefined;
    }
    const broken = ctx.reqs.find((r) => r.key === k && !valueSatisfies(r, v));
    if (broken) {
      ctx.violations.push({
        family: 'requirements',
        target: ctx.target,
        message: `instance type option ${it.name} (${k}=${v}) does not satisfy ${formatRequirement(broken)}`,
      });
      return undefined;
    }
  }
  return labels;
}

function launchable(ctx: Ctx, it: InstanceType): Offering[] {
  const offerKeys = [Labels.zone, Labels.capacityType, reservationKey];
  return it.offerings.filter((o) => {
    if (!o.available) return false;
    const ol = offeringLabels(o);
    return offerKeys.every(
      (k) =>
        (ctx.fixed[k] === undefined || ctx.fixed[k] === ol[k]) &&
        ctx.reqs.every((r) => r.key !== k || valueSatisfies(r, ol[k])),
    );
  });
}

function addOption(ctx: Ctx, it: InstanceType, acc: Accumulator): ClaimOption | undefined {
  const labels = optionLabels(ctx, it);
  const multi = optionMulti(ctx, it);
  if (!labels || !multi) return undefined;
  const offerings = launchable(ctx, it);
  if (offerings.length === 0) {
    ctx.violations.push({
      family: 'offerings',
      target: ctx.target,
      message: `instance type option ${it.name} has no available offering the NodeClaim's requirements allow`,
    });
    return undefined;
  }
  for (const o of offerings) acc.add({ ...ctx.fixed, ...labels, ...offeringLabels(o) }, multi);
  return {
    name: it.name,
    allocatable: allocatableOf(it),
    capacity: amountsOf(it.capacity),
    price: Math.min(...offerings.map((o) => o.price)),
  };
}

/** Keys no option or offering defines take their values from the requirements (single-valued In becomes a label). */
function undefinedKeys(ctx: Ctx, acc: Accumulator): void {
  for (const r of ctx.reqs) {
    if (acc.values.has(r.key)) continue;
    const vs = requirementValues(r);
    acc.values.set(r.key, new Set(vs));
  }
  for (const r of ctx.reqs) {
    const s = acc.values.get(r.key);
    if (!s) continue;
    for (const v of [...s]) if (v !== '*' && !valueSatisfies(r, v)) s.delete(v);
  }
}

/** Builds the view of `claim` launched from `pool` with instance types `catalog`. */
export function claimView(
  claim: NewNodeClaim,
  opts: { pool: NodePool; catalog: ReadonlyMap<string, InstanceType>; target: string },
): ClaimView {
  const { pool, catalog, target } = opts;
  const fixed: Record<string, string> = {
    ...(pool.template.labels ?? {}),
    [Labels.nodePool]: pool.name,
    ...claim.labels,
  };
  const ctx: Ctx = {
    claim,
    target,
    reqs: [...(pool.template.requirements ?? []), ...claim.requirements],
    fixed,
    violations: [],
  };
  const acc = new Accumulator();
  const options: ClaimOption[] = [];
  for (const name of claim.instanceTypeOptions) {
    const it = catalog.get(name);
    if (!it) {
      ctx.violations.push({
        family: 'offerings',
        target,
        message: `instance type option ${name} is not offered to nodepool ${pool.name}`,
      });
      continue;
    }
    const o = addOption(ctx, it, acc);
    if (o) options.push(o);
  }
  acc.finish();
  undefinedKeys(ctx, acc);
  return { labels: new NodeLabels(acc.values), options, violations: ctx.violations };
}
