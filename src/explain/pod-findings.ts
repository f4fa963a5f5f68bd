/**
 * Why one NodePool cannot take a pod, as a cause with its numbers and a fix. The first failing family decides, in
 * the order a user fixes them: the NodePool cannot launch at all, taints, requirements, zones of the EC2NodeClass,
 * instance types, capacity (every offering out of capacity), size, limits; then what the solver found (topology,
 * affinity, host ports), which depends on the other pods.
 */
import { Labels, type Toleration } from '../api/index.js';
import {
  fitsIn,
  formatTaint,
  prepareInstanceType,
  Requirements,
  untoleratedTaint,
  type InstanceType,
  type InstanceTypeInfo,
  type Resources,
  type UnplacedReason,
} from '../scheduling/index.js';
import type { Cause } from './model.js';
import type { PoolFacts } from './pool-facts.js';
import { amount, amounts } from './units.js';

/** A cause with its fix and how close it comes to placing the pod (higher: closer; the headline is the closest). */
export interface Finding {
  cause: Cause;
  fix: string;
  rank: number;
}

/** The pod's facts the findings read. */
export interface PodFacts {
  key: string;
  tolerations: readonly Toleration[];
  /** nodeSelector, the first required node affinity term and the volumes' zones. */
  requirements: Requirements;
  /** The zone requirements that come from bound volumes, with the volume name. */
  volumeZones: Array<{ volume: string; zones: string[] }>;
  requests: Resources;
}

const zoneKey = Labels.zone;

function pool(f: PoolFacts): string {
  return `NodePool \`${f.name}\``;
}

function finding(
  constraint: string,
  object: string,
  numbers: Cause['numbers'],
  text: { message: string; fix: string; rank: number },
): Finding {
  return { cause: { constraint, object, numbers, message: text.message }, fix: text.fix, rank: text.rank };
}

function taintFinding(f: PoolFacts, pod: PodFacts): Finding | undefined {
  const taint = untoleratedTaint(f.pool.spec.template.spec.taints ?? [], pod.tolerations);
  if (!taint) return undefined;
  const t = formatTaint(taint);
  // A NodePool the pod selects (it asks for a value of a key the NodePool constrains) and only fails to tolerate is
  // where the user meant it to go; a tainted NodePool it does not select is rarely meant for it.
  const selects = [...pod.requirements.keys()].some((k) => f.requirements.has(k));
  const otherwise = !selects || requirementFinding(f, pod) !== undefined || zoneFinding(f, pod) !== undefined;
  return finding(
    'taints',
    `NodePool/${f.name}`,
    { taint: t },
    {
      message: `${pool(f)} taints ${t}; the pod does not tolerate it`,
      fix: `add a toleration for ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} to the pod, or use a NodePool without that taint`,
      rank: otherwise ? 1 : 5,
    },
  );
}

function conflictKey(a: Requirements, b: Requirements): string | undefined {
  for (const key of b.keys()) {
    const one = new Requirements();
    const r = b.get(key);
    if (r) one.add(r);
    if (a.intersects(one)) return key;
  }
  return undefined;
}

function volumeOf(
  pod: PodFacts,
  zones: readonly string[] | undefined,
): { volume: string; zones: string[] } | undefined {
  return pod.volumeZones.find((v) => zones === undefined || !v.zones.some((z) => zones.includes(z)));
}

function requirementFinding(f: PoolFacts, pod: PodFacts): Finding | undefined {
  const key = conflictKey(f.requirements, pod.requirements);
  if (!key) return undefined;
  const theirs = f.requirements.get(key)?.toString() ?? key;
  const mine = pod.requirements.get(key)?.toString() ?? key;
  const vol = key === zoneKey ? volumeOf(pod, f.requirements.get(key)?.toSelectorRequirements()[0]?.values) : undefined;
  if (vol) {
    return finding(
      'volume-topology',
      `PersistentVolume/${vol.volume}`,
      { volume: vol.volume, zones: vol.zones.join(','), nodePoolAllows: theirs },
      {
        message: `volume ${vol.volume} is bound in ${vol.zones.join(', ')}, where ${pool(f)} does not launch (it requires ${theirs})`,
        fix: `allow ${vol.zones.join(', ')} in ${pool(f)}'s ${zoneKey} requirement, or move the volume`,
        rank: 5,
      },
    );
  }
  return finding(
    'requirements',
    `NodePool/${f.name}`,
    { key, pod: mine, nodePool: theirs },
    {
      message: `${pool(f)} requires ${theirs}; the pod requires ${mine}`,
      fix: `change the pod's nodeSelector or node affinity on ${key}, or allow those values in ${pool(f)}'s requirements`,
      rank: 3,
    },
  );
}

function zoneFinding(f: PoolFacts, pod: PodFacts): Finding | undefined {
  const want = pod.requirements.get(zoneKey);
  if (!want || !f.subnetZones || f.subnetZones.some((z) => want.has(z))) return undefined;
  const nodeClass = f.nodeClass?.metadata.name ?? '';
  const asked = want.toSelectorRequirements()[0]?.values ?? [];
  const vol = volumeOf(pod, f.subnetZones);
  const subject = vol ? `volume ${vol.volume} is bound in ${vol.zones.join(', ')}; ` : '';
  return finding(
    vol ? 'volume-topology' : 'zone',
    `EC2NodeClass/${nodeClass}`,
    { zones: asked.join(','), subnetZones: f.subnetZones.join(',') },
    {
      message: `${subject}zone ${asked.join(', ')} is not offered by any subnet of EC2NodeClass \`${nodeClass}\` (its subnets are in ${f.subnetZones.join(', ') || 'no zone'})`,
      fix: `add a subnet in ${asked.join(', ')} to EC2NodeClass \`${nodeClass}\`'s subnetSelectorTerms${vol ? '' : ", or drop the pod's zone requirement"}`,
      rank: vol ? 5 : 4,
    },
  );
}

/** Instance types of the pool that satisfy both requirement sets, judging offerings by `allOfferings` or availability. */
function compatible(types: readonly InstanceTypeInfo[], reqs: Requirements): InstanceTypeInfo[] {
  return types.filter((t) => t.requirements.intersects(reqs) === undefined);
}

function everyOffering(f: PoolFacts): InstanceTypeInfo[] {
  f.everyOffering ??= prepareAll(f.rawTypes);
  return f.everyOffering;
}

function prepareAll(raw: readonly InstanceType[]): InstanceTypeInfo[] {
  return raw
    .map((t) => prepareInstanceType({ ...t, offerings: t.offerings.map((o) => ({ ...o, available: true })) }))
    .filter((t): t is InstanceTypeInfo => t !== undefined);
}

/**
 * The NodePool's own requirements leave no instance type with an offering: the provider drops offerings that ran
 * out of capacity (for 3 minutes), so every one it allows is out of capacity or not offered in the subnets' zones.
 */
function emptyPoolFinding(f: PoolFacts): Finding {
  const named = f.requirements.get(Labels.instanceType)?.toString();
  return finding(
    'offerings',
    `NodePool/${f.name}`,
    { instanceTypes: 0, requirements: f.requirements.toString() },
    {
      message: `no instance type ${pool(f)} allows has an available offering: every offering of ${named ?? 'its instance types'} is out of capacity or not offered in the EC2NodeClass's zones`,
      fix: `allow more instance types, zones or capacity types in ${pool(f)}; offerings that ran out are tried again after 3 minutes`,
      rank: 9,
    },
  );
}

function typeFinding(f: PoolFacts, pod: PodFacts, reqs: Requirements): Finding | undefined {
  const all = compatible(everyOffering(f), reqs);
  if (all.length === 0) {
    const key = [...pod.requirements.keys()].find((k) => {
      const one = f.requirements.copy();
      const r = pod.requirements.get(k);
      if (r) one.add(r);
      return compatible(everyOffering(f), one).length === 0;
    });
    if (!key) return emptyPoolFinding(f);
    const what = pod.requirements.get(key)?.toString() ?? key;
    return finding(
      'requirements',
      `NodePool/${f.name}`,
      { key, pod: what, instanceTypes: f.rawTypes.length },
      {
        message: `none of the ${f.rawTypes.length} instance types ${pool(f)} allows satisfies ${what}`,
        fix: `change the pod's requirement ${what}, or widen ${pool(f)}'s instance type requirements`,
        rank: 3,
      },
    );
  }
  const open = compatible(f.types, reqs).filter((t) => t.offerings.some((o) => o.available && within(o, reqs)));
  if (open.length > 0) return undefined;
  const offerings = all.reduce((n, t) => n + t.offerings.filter((o) => within(o, reqs)).length, 0);
  // A bound volume pins the pod to its zone: say so, since that zone is why no other offering will do (S4).
  const vol = volumeOf(pod, undefined);
  const where = vol
    ? `volume ${vol.volume} is bound in ${vol.zones.join(', ')}, where every offering`
    : 'every offering';
  return finding(
    'offerings',
    `NodePool/${f.name}`,
    {
      instanceTypes: all.length,
      offerings,
      available: 0,
      ...(vol ? { volume: vol.volume, zones: vol.zones.join(',') } : {}),
    },
    {
      message: `${where} ${pool(f)} allows for the pod is out of capacity (insufficient capacity on all ${offerings} offerings of ${all.length} instance types)`,
      fix: vol
        ? `allow more instance types or capacity types in ${pool(f)} (the pod can only run in ${vol.zones.join(', ')}, with its volume); offerings that ran out are tried again after 3 minutes`
        : `allow more instance types, zones or capacity types in ${pool(f)}; offerings that ran out are tried again after 3 minutes`,
      rank: 9,
    },
  );
}

/** Whether an offering lies within the zone and capacity-type requirements. */
function within(o: { zone: string; capacityType: string }, reqs: Requirements): boolean {
  const zone = reqs.get(zoneKey);
  const capacity = reqs.get(Labels.capacityType);
  return (zone?.has(o.zone) ?? true) && (capacity?.has(o.capacityType) ?? true);
}

function sizeFinding(f: PoolFacts, pod: PodFacts, types: readonly InstanceTypeInfo[]): Finding | undefined {
  if (types.some((t) => fitsIn(pod.requests, t.allocatable))) return undefined;
  const needs = amounts(pod.requests);
  const res =
    Object.keys(pod.requests).find((k) => types.every((t) => (t.allocatable[k] ?? 0) < (pod.requests[k] ?? 0))) ??
    'cpu';
  const largest = types.reduce((a, b) => ((b.allocatable[res] ?? 0) > (a.allocatable[res] ?? 0) ? b : a));
  const has = amount(res, largest.allocatable[res] ?? 0);
  return finding(
    'resources',
    `NodePool/${f.name}`,
    {
      resource: res,
      requested: amount(res, pod.requests[res] ?? 0),
      largestInstanceType: largest.name,
      allocatable: has,
    },
    {
      message: `needs ${needs}; the largest instance type ${pool(f)} allows (${largest.name}) has ${has}${res === 'memory' ? ' memory' : ''} allocatable`,
      fix: `request at most ${has} ${res === 'cpu' ? '' : `${res} `}per pod, or allow larger instance types in ${pool(f)}'s requirements`.replace(
        '  ',
        ' ',
      ),
      rank: 8,
    },
  );
}

function limitFinding(f: PoolFacts, pod: PodFacts, types: readonly InstanceTypeInfo[]): Finding | undefined {
  if (!f.limits) return undefined;
  const fitting = types.filter((t) => fitsIn(pod.requests, t.allocatable));
  for (const [res, limit] of Object.entries(f.limits)) {
    const used = f.usage[res] ?? 0;
    const smallest = fitting.reduce<InstanceTypeInfo | undefined>(
      (a, b) => (!a || (b.capacity[res] ?? 0) < (a.capacity[res] ?? 0) ? b : a),
      undefined,
    );
    if (!smallest || used + (smallest.capacity[res] ?? 0) <= limit) continue;
    const numbers = {
      resource: res,
      limit: amount(res, limit),
      inUse: amount(res, used),
      remaining: amount(res, Math.max(0, limit - used)),
      smallestInstanceType: smallest.name,
      adds: amount(res, smallest.capacity[res] ?? 0),
    };
    return finding('nodepool-limits', `NodePool/${f.name}`, numbers, {
      message: `${pool(f)} limit ${res} ${numbers.limit} reached: ${numbers.inUse} in use, and the smallest instance type that fits the pod (${smallest.name}) adds ${numbers.adds}`,
      fix: `raise spec.limits.${res} of ${pool(f)} to at least ${amount(res, used + (smallest.capacity[res] ?? 0))}, or remove capacity it holds`,
      rank: 9,
    });
  }
  return undefined;
}

/** The fix for a family the solver judges (it depends on the other pods). */
export const solverFixes: Record<string, string> = {
  'topology-spread': 'raise maxSkew, allow more zones in the NodePool, or set whenUnsatisfiable: ScheduleAnyway',
  'pod-affinity': 'run a pod the affinity term selects first, or relax the term to preferred',
  'pod-anti-affinity': 'relax the anti-affinity term to preferred, or allow more domains (zones, nodes)',
  'host-ports': 'use a different host port, or let the pods land on separate nodes',
  'csi-limits': 'spread the volumes over more nodes or use instance types that attach more volumes',
  'volume-binding': 'wait for the PersistentVolumeClaim to be bound, or check its StorageClass provisioner',
  requirements: 'change the pod requirements or widen the NodePool requirements',
  resources: 'lower the pod requests or allow larger instance types',
  'nodepool-limits': 'raise the NodePool limits',
};

/**
 * The fix for the solver's limits reason: the limit that would let the smallest type holding the pod launch. The
 * NodeClaims planned in the same pass count at the types they launch as, so the limit is really reached.
 */
function limitsFix(f: PoolFacts, d: UnplacedReason['details']): string | undefined {
  const res = d?.['resource'];
  const raiseTo = d?.['raiseTo'];
  if (typeof res !== 'string' || typeof raiseTo !== 'string') return undefined;
  return `raise spec.limits.${res} of ${pool(f)} to at least ${raiseTo} (${String(d?.['usedOrPlanned'])} in use or planned now, and ${String(d?.['smallestInstanceType'])} adds ${String(d?.['adds'])}), or remove capacity it holds`;
}

/** The fix for a spread the NodePool's domains cannot keep: name the domain with the fewest matching pods. */
function spreadFix(f: PoolFacts, d: UnplacedReason['details']): string | undefined {
  const fewest = d?.['fewestDomain'];
  if (typeof fewest !== 'string' || fewest === '') return undefined;
  return `raise maxSkew, let ${pool(f)} launch in ${fewest} (it has the fewest matching pods), or set whenUnsatisfiable: ScheduleAnyway`;
}

function solverFinding(f: PoolFacts, reason: UnplacedReason): Finding {
  const text = reason.message.replace(/^incompatible with nodepool "[^"]*", /, '');
  const specific: Partial<Record<string, typeof limitsFix>> = {
    'nodepool-limits': limitsFix,
    'topology-spread': spreadFix,
  };
  const fix = specific[reason.constraint]?.(f, reason.details);
  return finding(
    reason.constraint,
    `NodePool/${f.name}`,
    { ...(reason.details ?? {}) },
    {
      message: `${pool(f)}: ${text}`,
      fix: fix ?? solverFixes[reason.constraint] ?? 'see the detail lines',
      rank: 6,
    },
  );
}

/** Why `f` cannot take the pod; `reason` is what the solver said for this NodePool, if it was offered to it. */
export function poolFinding(f: PoolFacts, pod: PodFacts, reason: UnplacedReason | undefined): Finding | undefined {
  const early = taintFinding(f, pod) ?? requirementFinding(f, pod);
  if (early) return early;
  if (f.unusable) {
    const u = f.unusable;
    return finding(
      u.constraint,
      u.object,
      { reason: u.reason },
      {
        message: `${pool(f)} cannot launch: ${u.object.replace('/', ' `')}\` ${u.message}`,
        fix:
          u.constraint === 'nodepool'
            ? 'use another NodePool'
            : `fix ${u.object.replace('/', ' `')}\` (kubectl describe ${u.object.toLowerCase()})`,
        rank: 9,
      },
    );
  }
  const zone = zoneFinding(f, pod);
  if (zone) return zone;
  const reqs = f.requirements.copy().addAll(pod.requirements);
  const types = typeFinding(f, pod, reqs);
  if (types) return types;
  const usable = compatible(f.types, reqs);
  const found = sizeFinding(f, pod, usable) ?? limitFinding(f, pod, usable);
  if (found) return found;
  return reason ? solverFinding(f, reason) : undefined;
}
