import type { CloudProvider, DriftReason, NodeClassReadiness } from '../cloud-provider.js';
import { Labels } from '../../api/index.js';
import { cheapestOffering, type InstanceType } from '../instance-type.js';
import type { RepairPolicy } from '../repair-policy.js';
import type { NodeClaim, NodePool } from '../types.js';
import { applyOverlays, type OverlayRule } from './apply.js';

/**
 * A cloud provider whose instance types carry the NodeOverlays in force (read afresh on every call), so every
 * consumer of getInstanceTypes (provisioning, consolidation, the lower bound) prices with them. Launches still
 * go to the inner provider, which buys at the market's price among the types the NodeClaim allows.
 */
export class OverlaidCloudProvider implements CloudProvider {
  readonly name: string;

  /** Wraps `inner`; `overlays` returns the NodeOverlays to apply now. */
  constructor(
    private readonly inner: CloudProvider,
    private readonly overlays: () => readonly OverlayRule[],
  ) {
    this.name = inner.name;
  }

  /**
   * Launches through the inner provider. When overlays change the prices of the types the NodeClaim allows, the
   * allowed types are narrowed to those cheapest with overlays applied: the inner provider buys at the market's
   * price, and would otherwise pick a type the overlays made dearer.
   */
  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const rules = this.overlays();
    if (rules.length === 0) return this.inner.create(nodeClaim);
    return this.inner.create(await this.narrowed(nodeClaim, rules));
  }

  private async narrowed(nodeClaim: NodeClaim, rules: readonly OverlayRule[]): Promise<NodeClaim> {
    const allowed = nodeClaim.spec.requirements.find(
      (r) => r.key === Labels.instanceType && r.operator === 'In',
    )?.values;
    if (!allowed || allowed.length < 2) return nodeClaim;
    const pool = nodeClaim.metadata.labels?.[Labels.nodePool] ?? '';
    const asPool: NodePool = {
      metadata: { name: pool },
      spec: {
        template: { spec: { nodeClassRef: nodeClaim.spec.nodeClassRef, requirements: nodeClaim.spec.requirements } },
      },
    };
    const raw = (await this.inner.getInstanceTypes(asPool)).filter((t) => allowed.includes(t.name));
    const overlaid = applyOverlays(raw, rules, pool).types;
    if (overlaid.every((t, i) => t === raw[i])) return nodeClaim;
    const price = (t: InstanceType): number => cheapestOffering(t)?.price ?? Number.POSITIVE_INFINITY;
    const best = Math.min(...overlaid.map(price));
    const keep = overlaid.filter((t) => price(t) <= best).map((t) => t.name);
    if (keep.length === 0) return nodeClaim;
    const requirements = nodeClaim.spec.requirements.map((r) =>
      r.key === Labels.instanceType && r.operator === 'In' ? { ...r, values: keep } : r,
    );
    return { ...nodeClaim, spec: { ...nodeClaim.spec, requirements } };
  }

  /** See CloudProvider. */
  delete(nodeClaim: NodeClaim): Promise<void> {
    return this.inner.delete(nodeClaim);
  }

  /** See CloudProvider. */
  get(providerID: string): Promise<NodeClaim> {
    return this.inner.get(providerID);
  }

  /** See CloudProvider. */
  list(): Promise<NodeClaim[]> {
    return this.inner.list();
  }

  /** The inner provider's instance types with the overlays applied. */
  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    const types = await this.inner.getInstanceTypes(nodePool);
    const rules = this.overlays();
    return rules.length === 0 ? types : applyOverlays(types, rules, nodePool.metadata.name ?? '').types;
  }

  /** The overlays that lost a conflict on this NodePool's instance types, with what they conflicted over. */
  async conflicts(nodePool: NodePool): Promise<Map<string, string>> {
    return applyOverlays(await this.inner.getInstanceTypes(nodePool), this.overlays(), nodePool.metadata.name ?? '')
      .conflicts;
  }

  /** See CloudProvider (overlays do not change NodeClass readiness). */
  nodeClassReadiness(nodePool: NodePool): NodeClassReadiness | undefined {
    return this.inner.nodeClassReadiness?.(nodePool);
  }

  /** See CloudProvider. */
  isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    return this.inner.isDrifted(nodeClaim);
  }

  /** See CloudProvider. */
  repairPolicies(): RepairPolicy[] {
    return this.inner.repairPolicies();
  }
}
