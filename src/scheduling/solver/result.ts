/**
 * Turns a finished packing into the SchedulingResult: placements, nominations, NodeClaims with their instance type
 * options cheapest first (at most 60, more only when minValues needs them), and the unplaced pods' reasons.
 */
import { Labels } from '../../api/index.js';
import { cheapestOffering, type InstanceTypeInfo } from '../instance-types.js';
import type { NewNodeClaim, SchedulingResult, UnplacedPod, UnplacedReason } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import { isAttachResource, toResourceList, type Resources } from '../resources/resources.js';
import { ExistingBin } from './existing-bin.js';
import type { NewBin } from './new-bin.js';
import { minValuesFailure } from './options.js';
import type { Packing } from './packing.js';

/** Karpenter caps a NodeClaim's instance type list at 60. */
export const MaxInstanceTypes = 60;

const byPrice = (a: { it: InstanceTypeInfo; price: number }, b: { it: InstanceTypeInfo; price: number }): number =>
  a.price - b.price || (a.it.name < b.it.name ? -1 : 1);

/**
 * The bin's fitting options priced under its requirements, cheapest first. Options come in list-price order and
 * a price under requirements is never below the list price, so without minValues the scan stops once the next
 * list price exceeds the MaxInstanceTypes-th cheapest price found.
 */
function orderedOptions(bin: NewBin): { it: InstanceTypeInfo; price: number }[] {
  const all = bin.fittingOptions();
  const bounded = ![...bin.requirements.values()].some((r) => r.minValues !== undefined);
  const out: { it: InstanceTypeInfo; price: number }[] = [];
  let sorted = true;
  for (const it of all) {
    if (bounded && out.length >= MaxInstanceTypes) {
      if (!sorted) {
        out.sort(byPrice);
        sorted = true;
      }
      if (it.price > (out[MaxInstanceTypes - 1]?.price ?? Number.POSITIVE_INFINITY)) break;
    }
    const price = cheapestOffering(it, bin.requirements)?.price;
    if (price === undefined) continue;
    out.push({ it, price });
    sorted = false;
  }
  return out.sort(byPrice);
}

/** The hourly price the NodeClaim would launch at: its cheapest fitting option under its requirements. */
export function binPrice(bin: NewBin): number | undefined {
  return orderedOptions(bin)[0]?.price;
}

function toNodeClaim(bin: NewBin): NewNodeClaim | undefined {
  const ordered = orderedOptions(bin);
  let n = Math.min(MaxInstanceTypes, ordered.length);
  while (
    n < ordered.length &&
    minValuesFailure(
      ordered.slice(0, n).map((o) => o.it),
      bin.requirements,
    )
  )
    n++;
  const chosen = ordered.slice(0, n);
  const first = chosen[0];
  if (!first) return undefined;
  const reqs = bin.requirements.copy();
  reqs.add(
    Requirement.of(
      Labels.instanceType,
      'In',
      chosen.map((o) => o.it.name),
    ),
  );
  const offering = cheapestOffering(first.it, bin.requirements);
  const withoutHostname = reqs.toSelectorRequirements().filter((r) => r.key !== Labels.hostname);
  return {
    nodePool: bin.template.name,
    requirements: withoutHostname,
    instanceTypeOptions: chosen.map((o) => o.it.name),
    cheapest: {
      instanceType: first.it.name,
      zone: offering?.zone ?? '',
      capacityType: offering?.capacityType ?? '',
      price: first.price,
    },
    pods: bin.pods.map((p) => p.key),
    requests: toResourceList(withoutAttachResources(bin.requests)),
    taints: [...bin.template.taints, ...bin.template.startupTaints],
    labels: { ...bin.template.labels, ...reqs.labels(), [Labels.hostname]: bin.hostname },
  };
}

/** The requests a NodeClaim carries: the planning-only attach resources left out. */
function withoutAttachResources(requests: Resources): Resources {
  const out: Resources = {};
  for (const k in requests) if (!isAttachResource(k)) out[k] = requests[k] ?? 0;
  return out;
}

/** Builds the result. */
export function buildResult(packing: Packing, unplaced: Map<PodInfo, UnplacedReason[]>): SchedulingResult {
  const result: SchedulingResult = { existingNodes: [], nominated: [], newNodeClaims: [], unplaced: [], cost: 0 };
  for (const [pod, bin] of packing.placement) {
    if (!(bin instanceof ExistingBin)) continue;
    if (bin.kind === 'node') result.existingNodes.push({ pod: pod.key, node: bin.node.name });
    else result.nominated.push({ pod: pod.key, nodeClaim: bin.node.name });
  }
  for (const bin of packing.newBins) {
    const nc = toNodeClaim(bin);
    if (!nc) continue;
    result.newNodeClaims.push(nc);
    result.cost += nc.cheapest.price;
  }
  const pending: UnplacedPod[] = [...unplaced.entries()]
    .sort(([a], [b]) => a.index - b.index)
    .map(([pod, reasons]) => ({ pod: pod.key, reasons }));
  result.unplaced = pending;
  return result;
}
