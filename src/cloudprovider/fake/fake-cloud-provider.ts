/**
 * An in-memory cloud provider for controllers' tests: it records every call, launches instantly by picking
 * the cheapest available offering the NodeClaim's requirements allow, and throws errors tests inject.
 */
import type { NodeSelectorRequirementWithMinValues } from '../../api/index.js';
import type { CloudProvider, DriftReason } from '../cloud-provider.js';
import { InsufficientCapacityError, NodeClaimNotFoundError } from '../errors.js';
import type { InstanceType, Offering } from '../instance-type.js';
import { defaultRepairPolicies, type RepairPolicy } from '../repair-policy.js';
import type { NodeClaim, NodePool } from '../types.js';

/** The methods a test can inspect calls of or inject errors into. */
export type FakeMethod = 'create' | 'delete' | 'get' | 'list' | 'getInstanceTypes' | 'isDrifted';

/** One recorded call: which method and its argument (NodeClaim, NodePool or providerID). */
export interface FakeCall {
  method: FakeMethod;
  arg?: NodeClaim | NodePool | string;
}

/** Construction options of the fake. */
export interface FakeCloudProviderOptions {
  instanceTypes?: InstanceType[];
  repairPolicies?: RepairPolicy[];
  /** Instance ids are `i-<prefix>-000001`, ... (default `fake`); a process-unique prefix keeps restarts apart. */
  instanceIdPrefix?: string;
  /** Keep every call in `calls` (default true; a long-running process turns it off so memory stays flat). */
  recordCalls?: boolean;
}

function allows(reqs: NodeSelectorRequirementWithMinValues[], key: string, value: string): boolean {
  return reqs.every((r) => {
    if (r.key !== key) return true;
    if (r.operator === 'In') return (r.values ?? []).includes(value);
    if (r.operator === 'NotIn') return !(r.values ?? []).includes(value);
    return r.operator !== 'DoesNotExist';
  });
}

/** The labels an offering sets over its instance type's. */
const offeringKeys: ReadonlySet<string> = new Set(['topology.kubernetes.io/zone', 'karpenter.sh/capacity-type']);

/** Whether the instance type's own labels (all but those its offerings set) are allowed. */
function typeFits(reqs: NodeSelectorRequirementWithMinValues[], type: InstanceType): boolean {
  return Object.entries(type.labels).every(([k, v]) => offeringKeys.has(k) || allows(reqs, k, v));
}

/** Whether an available offering's zone and capacity type are allowed (its type already fits). */
function offeringFits(reqs: NodeSelectorRequirementWithMinValues[], o: Offering): boolean {
  return (
    o.available &&
    allows(reqs, 'topology.kubernetes.io/zone', o.zone) &&
    allows(reqs, 'karpenter.sh/capacity-type', o.capacityType)
  );
}

/** A recording, error-injectable CloudProvider; deterministic instance ids `i-fake-000001`, ... (see instanceIdPrefix). */
export class FakeCloudProvider implements CloudProvider {
  readonly name = 'fake';
  readonly calls: FakeCall[] = [];
  /** Live instances by providerID. */
  readonly instances = new Map<string, NodeClaim>();
  instanceTypes: InstanceType[];
  /** Drift reason to report per providerID. */
  readonly drifted = new Map<string, DriftReason>();
  private readonly errors = new Map<FakeMethod, unknown[]>();
  private readonly policies: RepairPolicy[];
  private readonly idPrefix: string;
  private readonly recordCalls: boolean;
  private next = 1;

  constructor(options: FakeCloudProviderOptions = {}) {
    this.instanceTypes = options.instanceTypes ?? [];
    this.policies = options.repairPolicies ?? [...defaultRepairPolicies];
    this.idPrefix = options.instanceIdPrefix ?? 'fake';
    this.recordCalls = options.recordCalls ?? true;
  }

  /** Makes the next call of `method` throw `error` (queued: one error per call). */
  injectError(method: FakeMethod, error: unknown): void {
    const queue = this.errors.get(method) ?? [];
    queue.push(error);
    this.errors.set(method, queue);
  }

  /** The calls made to `method`, in order. */
  callsOf(method: FakeMethod): FakeCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private record(method: FakeMethod, arg?: FakeCall['arg']): void {
    if (this.recordCalls) this.calls.push({ method, arg });
    const queued = this.errors.get(method)?.shift();
    if (queued !== undefined) throw queued;
  }

  /** Launches on the cheapest fitting offering; InsufficientCapacityError when none fits. */
  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    this.record('create', nodeClaim);
    const reqs = nodeClaim.spec.requirements;
    let best: { type: InstanceType; offering: Offering } | undefined;
    // The type's labels are checked once, not once per offering: a burst of launches stays cheap per launch.
    for (const type of this.instanceTypes) {
      if (!typeFits(reqs, type)) continue;
      for (const offering of type.offerings) {
        if (offeringFits(reqs, offering) && (best === undefined || offering.price < best.offering.price)) {
          best = { type, offering };
        }
      }
    }
    if (best === undefined)
      throw new InsufficientCapacityError('no instance type and offering fit the requirements', []);
    const id = `i-${this.idPrefix}-${String(this.next++).padStart(6, '0')}`;
    const providerID = `fake:///${best.offering.zone}/${id}`;
    const launched: NodeClaim = {
      ...nodeClaim,
      metadata: {
        ...nodeClaim.metadata,
        labels: {
          ...nodeClaim.metadata.labels,
          ...best.type.labels,
          'topology.kubernetes.io/zone': best.offering.zone,
          'karpenter.sh/capacity-type': best.offering.capacityType,
        },
      },
      status: { ...nodeClaim.status, providerID, capacity: best.type.capacity, allocatable: best.type.allocatable },
    };
    this.instances.set(providerID, launched);
    return launched;
  }

  /** Forgets the instance; NodeClaimNotFoundError when it is already gone. */
  async delete(nodeClaim: NodeClaim): Promise<void> {
    this.record('delete', nodeClaim);
    const id = nodeClaim.status?.providerID ?? '';
    if (!this.instances.delete(id)) throw new NodeClaimNotFoundError(id);
  }

  /** The live instance `providerID`; NodeClaimNotFoundError when it is gone. */
  async get(providerID: string): Promise<NodeClaim> {
    this.record('get', providerID);
    const found = this.instances.get(providerID);
    if (found === undefined) throw new NodeClaimNotFoundError(providerID);
    return found;
  }

  /** Every live instance. */
  async list(): Promise<NodeClaim[]> {
    this.record('list');
    return [...this.instances.values()];
  }

  /** The configured instance types, whatever the NodePool. */
  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    this.record('getInstanceTypes', nodePool);
    return this.instanceTypes;
  }

  /** The drift reason set in `drifted` for the NodeClaim's providerID, if any. */
  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    this.record('isDrifted', nodeClaim);
    return this.drifted.get(nodeClaim.status?.providerID ?? '');
  }

  /** The configured repair policies (the defaults unless given). */
  repairPolicies(): RepairPolicy[] {
    return [...this.policies];
  }
}
