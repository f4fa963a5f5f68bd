/**
 * What `kubectl explain` prints for Tenon's CRDs. Kept apart from the TypeBox schemas so the validation
 * schemas stay readable; each table maps a dotted field path (array items are stepped through) to its text,
 * `''` being the kind itself. The facts follow Karpenter's CRDs; the wording is ours.
 */
import type { JsonSchemaProps } from '../schema/json-schema-props.js';

/** Field path → description. */
export type Descriptions = Readonly<Record<string, string>>;

const typeMeta: Descriptions = {
  apiVersion:
    'The versioned schema of this object (group/version); servers convert known versions and may reject unknown ones.',
  kind: 'The REST resource this object represents, in CamelCase; servers may infer it from the endpoint. Cannot be updated.',
};

const taint = (path: string, what: string): Descriptions => ({
  [path]: what,
  [`${path}.key`]: 'The taint key to set on the node. Required.',
  [`${path}.value`]: 'The value paired with the taint key.',
  [`${path}.effect`]:
    'What happens to pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute. Required.',
  [`${path}.timeAdded`]: 'When the taint was added; only set for NoExecute taints.',
});

const requirements = (path: string, what: string): Descriptions => ({
  [path]: what,
  [`${path}.key`]: 'The node label key the requirement constrains.',
  [`${path}.operator`]: 'How the key relates to the values: In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte or Lte.',
  [`${path}.values`]:
    'Label values. In and NotIn need at least one; Exists and DoesNotExist take none; Gt, Lt, Gte and Lte take exactly one integer. Replaced whole by a strategic merge patch.',
  [`${path}.minValues`]:
    'The least number of distinct values of this key the launch decision must keep open (instance-type flexibility).',
});

const nodeClaimSpec = (path: string): Descriptions => ({
  [`${path}.nodeClassRef`]:
    'The provider-specific node class (for AWS an EC2NodeClass) that configures the instances launched.',
  [`${path}.nodeClassRef.group`]: 'API group of the node class, e.g. karpenter.k8s.aws.',
  [`${path}.nodeClassRef.kind`]: 'Kind of the node class, e.g. EC2NodeClass.',
  [`${path}.nodeClassRef.name`]: 'Name of the node class.',
  ...requirements(
    `${path}.requirements`,
    'Scheduling requirements on node labels (instance type, zone, capacity type...) that every launched node satisfies.',
  ),
  ...taint(`${path}.taints`, 'Taints put on the node when it registers; pods must tolerate them to schedule there.'),
  ...taint(
    `${path}.startupTaints`,
    'Taints put on the node at start-up that something else (often a DaemonSet) is expected to remove soon. Pods need not tolerate them for a node to be provisioned for them.',
  ),
  [`${path}.expireAfter`]:
    "How long a node may live, counted from its creation, before it is replaced (e.g. 720h), or 'Never'. Useful for rolling upgrades and limiting drift.",
  [`${path}.terminationGracePeriod`]:
    'The longest a node may take to drain once deletion starts. When it runs out, remaining pods are deleted regardless of PodDisruptionBudgets or do-not-disrupt, and the instance is terminated.',
});

/** karpenter.sh/v1 NodePool. */
export const nodePoolDescriptions: Descriptions = {
  '': 'A NodePool sets the constraints on the nodes Tenon may launch for pending pods and on how they may later be disrupted.',
  ...typeMeta,
  spec: 'Desired behaviour of the NodePool: the template of the nodes it launches, its resource limits, weight and disruption settings. A NodePool can manage nodes of many shapes; what is launched combines its constraints with those of the pods.',
  'spec.template':
    'The template NodeClaims are created from; a launched NodeClaim is usually narrower than the template.',
  'spec.template.metadata': 'Labels and annotations copied to the NodeClaims and Nodes launched from this NodePool.',
  'spec.template.metadata.labels':
    'Labels put on launched nodes. Some domains (kubernetes.io, k8s.io, karpenter.sh) are restricted.',
  'spec.template.metadata.annotations': 'Annotations put on launched nodes.',
  'spec.template.spec': 'The NodeClaim spec of launched nodes: node class, requirements, taints and lifetime.',
  ...nodeClaimSpec('spec.template.spec'),
  'spec.disruption': 'When and how nodes of this NodePool may be disrupted (consolidated, replaced or removed).',
  'spec.disruption.consolidationPolicy':
    'Which nodes consolidation may act on: WhenEmpty (only nodes without workload pods) or WhenEmptyOrUnderutilized (also nodes whose pods fit elsewhere). Default WhenEmptyOrUnderutilized.',
  'spec.disruption.consolidateAfter':
    "How long after a pod was last added to or removed from a node it becomes a consolidation candidate (e.g. 30s, 5m), or 'Never' to turn consolidation off.",
  'spec.disruption.budgets':
    'Limits on how many nodes may be disrupted at once. When several budgets are active the most restrictive wins; without any, a single budget of 10% applies.',
  'spec.disruption.budgets.nodes':
    'The most nodes of this NodePool that may be disrupting at the same time: a number or a percentage of its nodes. Nodes being deleted count against it.',
  'spec.disruption.budgets.schedule':
    'A cron expression (or @daily, @hourly...) for when the budget becomes active, in UTC. Without it the budget is always active. Requires duration.',
  'spec.disruption.budgets.duration':
    'How long the budget stays active after each schedule hit, in hours and minutes (e.g. 1h30m). Requires schedule.',
  'spec.disruption.budgets.reasons':
    'The disruption reasons (Underutilized, Empty, Drifted) the budget applies to; without it the budget applies to all.',
  'spec.limits':
    'Caps on the total resources (cpu, memory, nodes...) the NodePool may provision; no new node is launched past them.',
  'spec.weight':
    'Priority among NodePools (1-100): higher-weight NodePools are tried first when several can host a pod.',
  status: 'Observed state of the NodePool.',
  'status.resources': 'The resources of all nodes this NodePool currently owns.',
  'status.conditions': 'Conditions describing the health and readiness of the NodePool.',
};

/** karpenter.sh/v1 NodeClaim. */
export const nodeClaimDescriptions: Descriptions = {
  '': "A NodeClaim is a request for one node: Tenon launches an instance for it and follows it until it is a registered, initialized Node, then tracks it for that node's whole life.",
  ...typeMeta,
  spec: 'What the node must be: node class, requirements, taints and lifetime. Immutable once created.',
  ...nodeClaimSpec('spec'),
  'spec.resources': 'Resources the node must be able to host.',
  'spec.resources.requests': 'The least resources the launched node must offer.',
  status: 'Observed state of the NodeClaim and its node.',
  'status.providerID': 'The cloud provider ID of the instance (aws:///zone/i-...).',
  'status.nodeName': 'The name of the Node that registered for this NodeClaim.',
  'status.imageID': 'The image (AMI) the instance was launched from.',
  'status.capacity': 'Resources the instance has.',
  'status.allocatable': 'Resources available to pods on the node, after system reservations.',
  'status.conditions': 'Lifecycle conditions (Launched, Registered, Initialized, Ready, Drifted, Consolidatable...).',
  'status.lastPodEventTime':
    'When a pod was last scheduled to or removed from the node; consolidateAfter counts from it.',
};

/** karpenter.k8s.aws/v1 EC2NodeClass. */
export const ec2NodeClassDescriptions: Descriptions = {
  '': 'An EC2NodeClass holds the AWS-specific settings of launched instances: AMIs, subnets, security groups, IAM role, storage, metadata options, user data and kubelet settings.',
  ...typeMeta,
  spec: 'Desired EC2 configuration of the instances launched with this node class.',
  'spec.amiFamily':
    'The AMI family, which decides the bootstrap user data format. Needed unless an alias is used in amiSelectorTerms.',
  'spec.amiSelectorTerms':
    'Terms selecting the AMIs to launch from; terms are ORed. An alias (family@version) must be the only term.',
  'spec.amiSelectorTerms.alias':
    'An AMI family and version, e.g. al2023@latest or al2023@v20240807; resolved through SSM.',
  'spec.amiSelectorTerms.id': 'An AMI ID.',
  'spec.amiSelectorTerms.name': 'An AMI name; wildcards are allowed.',
  'spec.amiSelectorTerms.owner': "The AMI owner's account ID or alias (self, amazon).",
  'spec.amiSelectorTerms.ssmParameter': 'An SSM parameter whose value is an AMI ID.',
  'spec.amiSelectorTerms.tags': 'Tags the AMI must carry; all must match.',
  'spec.subnetSelectorTerms': 'Terms selecting the subnets instances launch into; terms are ORed.',
  'spec.subnetSelectorTerms.id': 'A subnet ID.',
  'spec.subnetSelectorTerms.tags': 'Tags the subnet must carry; all must match.',
  'spec.securityGroupSelectorTerms': 'Terms selecting the security groups attached to instances; terms are ORed.',
  'spec.securityGroupSelectorTerms.id': 'A security group ID.',
  'spec.securityGroupSelectorTerms.name': 'A security group name.',
  'spec.securityGroupSelectorTerms.tags': 'Tags the security group must carry; all must match.',
  'spec.capacityReservationSelectorTerms': 'Terms selecting On-Demand Capacity Reservations instances may launch into.',
  'spec.role':
    'The IAM role for the instance profile Tenon creates. Exactly one of role and instanceProfile must be set.',
  'spec.instanceProfile':
    'An existing IAM instance profile to use. Exactly one of role and instanceProfile must be set.',
  'spec.userData': 'User data merged with the bootstrap configuration of the AMI family.',
  'spec.tags': 'Tags added to the instances, volumes and launch templates.',
  'spec.blockDeviceMappings': 'The EBS volumes attached to instances.',
  'spec.metadataOptions': 'Instance metadata service (IMDS) settings.',
  'spec.kubelet':
    'Any KubeletConfiguration field, passed to nodes at bootstrap. Tenon reads maxPods, podsPerCore, kubeReserved, systemReserved and evictionHard for allocatable; a bad value shows as ValidationSucceeded=False.',
  'spec.associatePublicIPAddress': 'Whether instances get a public IP address.',
  'spec.detailedMonitoring': 'Whether detailed CloudWatch monitoring is on.',
  'spec.instanceStorePolicy':
    'How local instance-store NVMe disks are used; RAID0 makes one array for ephemeral storage.',
  'spec.context': 'An opaque string passed to CreateFleet (e.g. for reserved capacity contexts).',
  status: 'Resolved AWS resources and readiness of the node class.',
  'status.amis': 'The AMIs the selector terms resolved to, with the requirements each serves.',
  'status.subnets': 'The subnets the selector terms resolved to.',
  'status.securityGroups': 'The security groups the selector terms resolved to.',
  'status.instanceProfile': 'The instance profile used by launched instances.',
  'status.capacityReservations': 'The capacity reservations the selector terms resolved to.',
  'status.conditions': 'Readiness conditions of the node class.',
};

// A path steps through an array to its items: `budgets.nodes` is the `nodes` field of each budget.
function stepInto(node: JsonSchemaProps): JsonSchemaProps {
  return node.type === 'array' && node.items ? node.items : node;
}

/** The schema at a dotted path (array items stepped through), or undefined when the path names no field. */
export function schemaAt(root: JsonSchemaProps, path: string): JsonSchemaProps | undefined {
  let node: JsonSchemaProps | undefined = root;
  for (const name of path ? path.split('.') : []) {
    node = node ? stepInto(node).properties?.[name] : undefined;
  }
  return node;
}

/** Sets each path's description on a CRD schema (in place); returns the paths that name no field. */
export function describeSchema(root: JsonSchemaProps, table: Descriptions): string[] {
  const missing: string[] = [];
  for (const [path, text] of Object.entries(table)) {
    const node = schemaAt(root, path);
    if (node) node.description = text;
    else missing.push(path);
  }
  return missing;
}
