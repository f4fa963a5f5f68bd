/**
 * Descriptions of the fields Karpenter v1.15 added (static NodePools, EC2NodeClass networking and placement) and
 * of the NodeOverlay and CapacityBuffer kinds. Same shape as descriptions.ts; the wording is ours.
 */
import type { Descriptions } from './descriptions.js';

const conditions = 'Conditions: Ready, and what blocks it, each with a reason and a message.';

/** NodePool fields added in v1.15, merged over the NodePool table. */
export const nodePoolV115Descriptions: Descriptions = {
  'spec.disruption.consolidationPolicy':
    'Which nodes consolidation may act on: WhenEmpty (only nodes without workload pods), WhenEmptyOrUnderutilized (also nodes whose pods fit elsewhere) or Balanced (only where the saving outweighs the disruption). Default WhenEmptyOrUnderutilized.',
  'spec.disruption.budgets.reasons':
    'The disruption reasons (Underutilized, Empty, Drifted, Unhealthy) the budget applies to; without it the budget applies to all.',
  'spec.replicas':
    'Makes the NodePool static: it keeps exactly this many nodes whatever the pods, never consolidates them, and replaces drifted or expired ones within budgets. Only limits.nodes may be set; weight may not. Cannot be added or removed after creation.',
  'status.nodes': 'How many nodes the NodePool has (the scale subresource reads it).',
  'status.nodeClassObservedGeneration': 'The generation of the node class the NodePool last checked.',
};

/** EC2NodeClass fields added in v1.15, merged over the EC2NodeClass table. */
export const ec2NodeClassV115Descriptions: Descriptions = {
  'spec.networkInterfaces':
    'Network interfaces of launched instances: one primary interface (card 0, device 0) and EFA-only interfaces, at most one per network card.',
  'spec.enclaveOptions': 'Nitro Enclaves on launched instances; only instance types that support enclaves are used.',
  'spec.placementGroupSelector':
    'The placement group (by name or id) instances launch into; its strategy narrows the zones and types used.',
  'spec.cpuOptions': 'CPU options of launched instances (nested virtualization).',
  'spec.connectionTracking': 'Idle timeouts, in seconds, for tracked connections on the primary interface.',
  'spec.ipPrefixCount':
    'IPv4 prefixes (/28) assigned to the primary interface; with prefix delegation it raises the pods a node can hold.',
  'spec.capacityReservationSelectorTerms.instanceMatchCriteria':
    "Selects reservations by how they match instances: 'open' (any matching launch uses them) or 'targeted' (only launches naming them).",
  'status.capacityReservations.interruptible':
    'Whether the reservation may be reclaimed by its owner (interruptible capacity).',
};

/** The NodeOverlay kind. */
export const nodeOverlayDescriptions: Descriptions = {
  '': 'Adjusts what Tenon believes about the instance types its requirements select: their price and extended-resource capacity.',
  spec: 'Which instance types the overlay selects and what it changes.',
  'spec.requirements': 'Node label requirements selecting the instance types (and offerings) the overlay applies to.',
  'spec.price': 'Replaces the hourly price of the selected offerings (dollars). Exclusive with priceAdjustment.',
  'spec.priceAdjustment':
    "Changes the hourly price: '+0.1' or '-0.1' dollars, or a percentage such as '-10%' or '+5%'.",
  'spec.capacity':
    'Extended resources added to the capacity of the selected instance types (not cpu, memory, ephemeral-storage or pods).',
  'spec.weight':
    'Precedence among overlays selecting the same instance type: the highest weight wins; equal weights merge by name.',
  'status.conditions': conditions,
};

/** The CapacityBuffer kind. */
export const capacityBufferDescriptions: Descriptions = {
  '': 'Spare capacity kept ready for pods that have not arrived yet, as virtual pods the autoscaler provisions nodes for.',
  spec: 'The shape of one buffer unit and how many units to keep.',
  'spec.podTemplateRef': 'A PodTemplate (same namespace) giving the shape of one unit. Needs replicas or limits.',
  'spec.scalableRef': 'An object with a scale subresource (e.g. a Deployment) whose pods give the shape of one unit.',
  'spec.replicas': 'How many units to keep.',
  'spec.percentage': "Units as a percentage of the scalable object's replicas.",
  'spec.limits': 'Caps on the total resources of the buffer; the unit count is lowered to fit.',
  'spec.provisioningStrategy':
    'How the buffer is provisioned; buffer.x-k8s.io/active-capacity keeps it as running nodes.',
  'status.replicas': 'The number of units the autoscaler provisions for.',
  'status.podTemplateRef': 'The PodTemplate the units were resolved from.',
  'status.conditions': conditions,
};
