import { AutoscalingXK8sGroup, KarpenterAwsGroup, KarpenterGroup } from '../well-known/groups.js';
import { NodePoolSchema } from '../nodepool/schema.js';
import { NodeClaimSchema } from '../nodeclaim/schema.js';
import { EC2NodeClassSchema } from '../ec2nodeclass/schema.js';
import { NodeOverlaySchema } from '../nodeoverlay/schema.js';
import { CapacityBufferSchema } from '../capacitybuffer/schema.js';
import {
  describeSchema,
  ec2NodeClassDescriptions,
  nodeClaimDescriptions,
  nodePoolDescriptions,
  type Descriptions,
} from './descriptions.js';
import {
  capacityBufferDescriptions,
  ec2NodeClassV115Descriptions,
  nodeOverlayDescriptions,
  nodePoolV115Descriptions,
} from './descriptions-v115.js';
import { toOpenApi } from './to-openapi.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, PrinterColumn } from './types.js';
import type { TSchema } from '@sinclair/typebox';

interface CrdInput {
  group: string;
  kind: string;
  plural: string;
  shortNames?: string[];
  columns: PrinterColumn[];
  schema: TSchema;
  descriptions: Descriptions;
  /** The served version (`v1` unless given). */
  version?: string;
  scope?: 'Cluster' | 'Namespaced';
  categories?: string[];
  subresources?: CustomResourceDefinitionVersion['subresources'];
}

function crd(input: CrdInput): CustomResourceDefinition {
  const names: CustomResourceDefinition['spec']['names'] = {
    categories: input.categories ?? ['karpenter'],
    kind: input.kind,
    listKind: `${input.kind}List`,
    plural: input.plural,
    singular: input.kind.toLowerCase(),
  };
  if (input.shortNames) names.shortNames = input.shortNames;
  const described = toOpenApi(input.schema);
  describeSchema(described, input.descriptions);
  // Sorted again so each description sits where controller-gen would write it.
  const openAPIV3Schema = toOpenApi(described);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${input.plural}.${input.group}` },
    spec: {
      group: input.group,
      names,
      scope: input.scope ?? 'Cluster',
      versions: [
        {
          additionalPrinterColumns: input.columns,
          name: input.version ?? 'v1',
          schema: { openAPIV3Schema },
          served: true,
          storage: true,
          subresources: input.subresources ?? { status: {} },
        },
      ],
    },
  };
}

const readyColumn: PrinterColumn = {
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
  name: 'Ready',
  type: 'string',
};
const ageColumn: PrinterColumn = { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' };

/** The karpenter.sh/v1 NodePool CRD. */
export function nodePoolCrd(): CustomResourceDefinition {
  return crd({
    group: KarpenterGroup,
    kind: 'NodePool',
    plural: 'nodepools',
    schema: NodePoolSchema,
    descriptions: { ...nodePoolDescriptions, ...nodePoolV115Descriptions },
    subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.nodes' }, status: {} },
    columns: [
      { jsonPath: '.spec.template.spec.nodeClassRef.name', name: 'NodeClass', type: 'string' },
      { jsonPath: '.status.nodes', name: 'Nodes', type: 'string' },
      readyColumn,
      ageColumn,
      { jsonPath: '.spec.weight', name: 'Weight', priority: 1, type: 'integer' },
      { jsonPath: '.status.resources.cpu', name: 'CPU', priority: 1, type: 'string' },
      { jsonPath: '.status.resources.memory', name: 'Memory', priority: 1, type: 'string' },
    ],
  });
}

/** The karpenter.sh/v1 NodeClaim CRD. */
export function nodeClaimCrd(): CustomResourceDefinition {
  return crd({
    group: KarpenterGroup,
    kind: 'NodeClaim',
    plural: 'nodeclaims',
    schema: NodeClaimSchema,
    descriptions: nodeClaimDescriptions,
    columns: [
      { jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type', name: 'Type', type: 'string' },
      { jsonPath: '.metadata.labels.karpenter\\.sh/capacity-type', name: 'Capacity', type: 'string' },
      { jsonPath: '.metadata.labels.topology\\.kubernetes\\.io/zone', name: 'Zone', type: 'string' },
      { jsonPath: '.status.nodeName', name: 'Node', type: 'string' },
      readyColumn,
      ageColumn,
      { jsonPath: '.status.imageID', name: 'ImageID', priority: 1, type: 'string' },
      { jsonPath: '.status.providerID', name: 'ID', priority: 1, type: 'string' },
      { jsonPath: '.metadata.labels.karpenter\\.sh/nodepool', name: 'NodePool', priority: 1, type: 'string' },
      { jsonPath: '.spec.nodeClassRef.name', name: 'NodeClass', priority: 1, type: 'string' },
      { jsonPath: '.status.conditions[?(@.type=="Drifted")].status', name: 'Drifted', priority: 1, type: 'string' },
    ],
  });
}

/** The karpenter.k8s.aws/v1 EC2NodeClass CRD. */
export function ec2NodeClassCrd(): CustomResourceDefinition {
  return crd({
    group: KarpenterAwsGroup,
    kind: 'EC2NodeClass',
    plural: 'ec2nodeclasses',
    shortNames: ['ec2nc', 'ec2ncs'],
    schema: EC2NodeClassSchema,
    descriptions: { ...ec2NodeClassDescriptions, ...ec2NodeClassV115Descriptions },
    columns: [readyColumn, ageColumn, { jsonPath: '.spec.role', name: 'Role', priority: 1, type: 'string' }],
  });
}

/** The karpenter.sh/v1alpha1 NodeOverlay CRD. */
export function nodeOverlayCrd(): CustomResourceDefinition {
  return crd({
    group: KarpenterGroup,
    kind: 'NodeOverlay',
    plural: 'nodeoverlays',
    shortNames: ['overlays'],
    version: 'v1alpha1',
    schema: NodeOverlaySchema,
    descriptions: nodeOverlayDescriptions,
    columns: [readyColumn, ageColumn, { jsonPath: '.spec.weight', name: 'Weight', priority: 1, type: 'integer' }],
  });
}

/** The autoscaling.x-k8s.io/v1beta1 CapacityBuffer CRD (SIG Autoscaling's API, shipped with Karpenter). */
export function capacityBufferCrd(): CustomResourceDefinition {
  const column = (name: string, jsonPath: string, type: PrinterColumn['type'] = 'string'): PrinterColumn => ({
    jsonPath,
    name,
    type,
  });
  return crd({
    group: AutoscalingXK8sGroup,
    kind: 'CapacityBuffer',
    plural: 'capacitybuffers',
    shortNames: ['cb'],
    categories: ['autoscaling'],
    scope: 'Namespaced',
    version: 'v1beta1',
    schema: CapacityBufferSchema,
    descriptions: capacityBufferDescriptions,
    columns: [
      column('Strategy', '.spec.provisioningStrategy'),
      column('PodTemplate', '.status.podTemplateRef.name'),
      column('Replicas', '.status.replicas', 'integer'),
      column('ConditionsType', '.status.conditions[*].type'),
      column('ConditionsStatus', '.status.conditions[*].status'),
      column('ConditionsReason', '.status.conditions[*].reason'),
      ageColumn,
    ],
  });
}
