/**
 * What repeated solves of one cluster may share: memos of the objects they are handed (pod specs, nodes, instance
 * types, NodePools), keyed weakly by object identity. Its owner creates one and passes it to every solve it runs
 * (the provisioner keeps one for its life, disruption one per pass); a solve without one makes its own. The
 * memos assume that an object handed to a solve is not changed afterwards: a caller that changes a pod spec,
 * node or NodePool in place must hand the next solve a new cache.
 */
import type { InstanceTypeInfo } from './instance-types.js';
import type { ExistingNode, InstanceType, NodePool, DaemonSet, Pod } from './model.js';
import type { PodTraits } from './pod-info.js';
import type { Relaxed } from './preferences.js';
import { RequirementTable } from './requirements/requirement.js';
import type { Requirements } from './requirements/requirements.js';
import type { Resources } from './resources/resources.js';
import { ContentKeys } from './solver/canonical.js';
import type { NodeFacts } from './solver/existing-bin.js';
import type { PriceLists } from './solver/slot-prices.js';
import type { PreparedTemplate } from './solver/template.js';

/** Memos shared by the solves of one owner. */
export class SolveCache {
  /** Shared single-value, Exists and DoesNotExist requirements (labels repeat across nodes and types). */
  readonly requirements = new RequirementTable();
  /** A pod's requests, per spec object. */
  readonly requests = new WeakMap<object, Readonly<Resources>>();
  /** Pod traits per spec, labels object and namespace. */
  readonly traits = new WeakMap<object, WeakMap<object, Map<string, PodTraits>>>();
  /** Traits one relaxation further, per traits and whether PreferNoSchedule may be tolerated. */
  readonly relaxed = new WeakMap<PodTraits, Map<boolean, Relaxed>>();
  /** Prepared instance types (null: no available offering), and prepared lists of them. */
  readonly instanceTypes = new WeakMap<InstanceType, InstanceTypeInfo | null>();
  readonly instanceTypeLists = new WeakMap<readonly InstanceType[], { length: number; list: InstanceTypeInfo[] }>();
  /** A NodePool's prepared template, with the instance types and DaemonSets it was prepared from. */
  readonly templates = new WeakMap<
    NodePool,
    { types: object; daemonSets: readonly DaemonSet[]; prepared: PreparedTemplate }
  >();
  /** The domains of a key a prepared template provides. */
  readonly templateDomains = new WeakMap<readonly InstanceTypeInfo[], Map<string, string[]>>();
  /** Parsed facts of an existing node, and a node's labels as requirements. */
  readonly nodeFacts = new WeakMap<ExistingNode, NodeFacts>();
  readonly labelRequirements = new WeakMap<object, Requirements>();
  /** Price lists per prepared instance type list and requirements signature. */
  readonly priceLists = new WeakMap<readonly InstanceTypeInfo[], Map<string, PriceLists>>();
  /** How many of a node's pods a topology group selects, per pod list and group hash. */
  readonly matchingPods = new WeakMap<readonly Pod[], Map<string, number>>();
  /** What a pod is without its identity, per spec and labels object (the solve's pod order). */
  readonly contentKeys = new ContentKeys();
}
