/**
 * The new NodeClaims themselves: non-empty requirements and options, options cheapest first with `cheapest`
 * naming the first, minValues met by the options, no empty NodeClaim, the reported cost adding up; and NodePool
 * limits never exceeded counting existing, in-flight and new capacity (a new NodeClaim at its largest option).
 */
import { Labels } from '../../api/index.js';
import type { NodeSelectorRequirementWithMinValues } from '../../api/index.js';
import type { InstanceType } from '../model.js';
import { addAmounts, amountsOf, formatNano, type Amounts } from '../rules/oracle-amounts.js';
import { valueSatisfies } from '../rules/labels.js';
import type { Violation } from './violation.js';
import type { CheckNode, World } from './world.js';

function valuesOf(it: InstanceType, key: string): string[] {
  if (key === Labels.instanceType) return [it.name];
  const label = it.labels?.[key];
  if (label !== undefined) return [label];
  if (key === Labels.zone) return it.offerings.filter((o) => o.available).map((o) => o.zone);
  if (key === Labels.capacityType) return it.offerings.filter((o) => o.available).map((o) => o.capacityType);
  return (it.requirements ?? []).filter((r) => r.key === key && r.operator === 'In').flatMap((r) => r.values ?? []);
}

function minValuesFailures(node: CheckNode, world: World): Violation[] {
  const claim = node.claim;
  if (!claim) return [];
  const pool = world.input.nodePools.find((p) => p.name === claim.nodePool);
  const catalog = new Map(
    (world.input.instanceTypesByNodePool?.[claim.nodePool] ?? world.input.instanceTypes).map((it) => [it.name, it]),
  );
  const reqs: NodeSelectorRequirementWithMinValues[] = [...(pool?.template.requirements ?? []), ...claim.requirements];
  const out: Violation[] = [];
  for (const r of reqs) {
    if (r.minValues === undefined) continue;
    const seen = new Set<string>();
    for (const name of claim.instanceTypeOptions) {
      const it = catalog.get(name);
      for (const v of it ? valuesOf(it, r.key) : []) if (valueSatisfies(r, v)) seen.add(v);
    }
    if (seen.size < r.minValues) {
      out.push({
        family: 'nodeclaim',
        target: node.target,
        message: `minValues ${r.minValues} on ${r.key} but the options offer ${seen.size}`,
        details: { key: r.key, minValues: r.minValues, offered: seen.size },
      });
    }
  }
  return out;
}

function claimShape(node: CheckNode): Violation[] {
  const claim = node.claim;
  const options = node.options ?? [];
  if (!claim) return [];
  const out: Violation[] = [];
  const bad = (message: string): void => void out.push({ family: 'nodeclaim', target: node.target, message });
  if (claim.requirements.length === 0) bad('NodeClaim has no requirements');
  if (claim.instanceTypeOptions.length === 0) bad('NodeClaim has no instance type options');
  if (claim.pods.length === 0) bad('NodeClaim has no pods');
  for (let i = 1; i < options.length; i++) {
    const [a, b] = [options[i - 1], options[i]];
    if (a && b && b.price < a.price - 1e-12)
      bad(`options are not cheapest first: ${a.name} ($${a.price}) before ${b.name} ($${b.price})`);
  }
  const first = options[0];
  if (first && (claim.cheapest.instanceType !== first.name || Math.abs(claim.cheapest.price - first.price) > 1e-9)) {
    bad(
      `cheapest says ${claim.cheapest.instanceType} at $${claim.cheapest.price}, the first option is ${first.name} at $${first.price}`,
    );
  }
  return out;
}

function capacityOfNode(node: CheckNode): Amounts {
  if (node.existing) return amountsOf(node.existing.capacity ?? node.existing.allocatable);
  const out: Amounts = new Map();
  for (const o of node.options ?? []) for (const [k, v] of o.capacity) if (v > (out.get(k) ?? 0n)) out.set(k, v);
  return out;
}

function limitViolations(world: World): Violation[] {
  const out: Violation[] = [];
  for (const pool of world.input.nodePools) {
    if (!pool.limits) continue;
    const nodes = world.nodes.filter((n) => n.nodePool === pool.name);
    if (!nodes.some((n) => n.kind === 'new')) continue;
    const used: Amounts = new Map();
    for (const n of nodes) addAmounts(used, capacityOfNode(n));
    for (const [k, limit] of amountsOf(pool.limits)) {
      const u = used.get(k) ?? 0n;
      if (u > limit)
        out.push({
          family: 'nodepool-limits',
          target: `nodepool/${pool.name}`,
          message: `nodepool ${pool.name} would use ${formatNano(u)} ${k}, its limit is ${formatNano(limit)}`,
          details: { resource: k, used: formatNano(u), limit: formatNano(limit) },
        });
    }
  }
  return out;
}

/** NodeClaim shape, minValues, limits and cost violations. */
export function checkNodeClaims(world: World): Violation[] {
  const out: Violation[] = [];
  for (const n of world.nodes) if (n.kind === 'new') out.push(...claimShape(n), ...minValuesFailures(n, world));
  out.push(...limitViolations(world));
  const sum = world.result.newNodeClaims.reduce((s, c) => s + c.cheapest.price, 0);
  if (Math.abs(sum - world.result.cost) > 1e-6 * Math.max(1, sum))
    out.push({ family: 'cost', message: `result cost ${world.result.cost} but its NodeClaims add up to ${sum}` });
  return out;
}
