/**
 * The placement group an EC2NodeClass's `placementGroupSelector` names (by id or name), as Karpenter resolves it:
 * only groups in state `available`, looked up once a minute, the last one found kept through a failed lookup.
 */
import { ConditionTypes, type EC2NodeClass, ConditionReasons } from '../../../api/index.js';
import type { Clock } from '../../../clock/index.js';
import { TtlCache } from '../cache/ttl-cache.js';
import { AwsApiError, type AwsPort, type PlacementGroupInfo } from '../ports/index.js';
import { ok, type ConditionOutcome } from './conditions.js';
import { specOf } from './settings.js';

/** How long a lookup is reused. */
export const PlacementGroupTtlMs = 60_000;

/** The result of a lookup: the group, or none found. */
type Lookup = { group: PlacementGroupInfo | undefined };

/** Resolves placement group selectors. */
export class PlacementGroupProvider {
  private readonly port: AwsPort;
  private readonly lookups: TtlCache<Lookup>;
  private readonly lastKnown = new Map<string, PlacementGroupInfo>();

  constructor(input: { port: AwsPort; clock: Clock }) {
    this.port = input.port;
    this.lookups = new TtlCache(input.clock, PlacementGroupTtlMs);
  }

  /**
   * The class's placement group; undefined when it selects none or the group does not exist (or is not
   * available). A failed lookup returns the last group found for the selector, else throws the AwsApiError.
   */
  async get(nodeClass: EC2NodeClass): Promise<PlacementGroupInfo | undefined> {
    const selector = specOf(nodeClass).placementGroupSelector;
    if (!selector) return undefined;
    const key = selector.id !== undefined ? `id:${selector.id}` : `name:${selector.name ?? ''}`;
    try {
      const found = await this.lookups.getOrLoad(key, async () => {
        const groups = await this.port.describePlacementGroups(
          selector.id !== undefined ? { groupIds: [selector.id] } : { groupNames: [selector.name ?? ''] },
        );
        return { group: groups.find((g) => g.state === 'available') };
      });
      if (found.group) this.lastKnown.set(key, found.group);
      return found.group;
    } catch (e: unknown) {
      const known = this.lastKnown.get(key);
      if (known) return known;
      throw e;
    }
  }

  /** The class's `PlacementGroupReady` condition (True when it selects none). */
  async condition(nodeClass: EC2NodeClass): Promise<ConditionOutcome> {
    const type = ConditionTypes.placementGroupReady;
    const selector = specOf(nodeClass).placementGroupSelector;
    const named = selector?.name ?? selector?.id ?? '';
    try {
      const group = await this.get(nodeClass);
      if (selector && !group)
        return {
          type,
          status: 'False',
          reason: ConditionReasons.placementGroupNotFound,
          message: `Placement group "${named}" not found`,
        };
      return ok(type);
    } catch (e: unknown) {
      if (!AwsApiError.is(e)) throw e;
      return {
        type,
        status: 'False',
        reason: ConditionReasons.placementGroupResolutionFailed,
        message: `Failed to resolve placement group "${named}": ${e.message}`,
      };
    }
  }
}

/** The lowest partition a NodeClaim's requirement on the partition label allows, when it names any. */
export function partitionOf(values: readonly string[] | undefined): number | undefined {
  const numbers = (values ?? []).map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return numbers.length === 0 ? undefined : Math.min(...numbers);
}
