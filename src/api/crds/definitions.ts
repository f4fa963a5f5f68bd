import { KarpenterAwsGroup, KarpenterGroup } from '../well-known/groups.js';
import { NodePoolSchema } from '../nodepool/schema.js';
import { NodeClaimSchema } from '../nodeclaim/schema.js';
import { EC2NodeClassSchema } from '../ec2nodeclass/schema.js';
import { describeSchema, ec2NodeClassDescriptions, nodeClaimDescriptions, nodePoolDescriptions, type Descriptions } from './descriptions.js';
import { toOpenApi } from './to-openapi.js';
import type { CustomResourceDefinition, PrinterColumn } from './types.js';
import type { TSchema } from '@sinclair/typebox';

interface CrdInput {
  group: string;
  kind: string;
  plural: string;
  shortNames?: string[];
  columns: PrinterColumn[];
  schema: TSchema;
  descriptions: Descriptions;
}

function crd(input: CrdInput): CustomResourceDefinition {
  const names: CustomResourceDefinition['spec']['names'] = {
    categories: ['karpenter'],
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
      scope: 'Cluster',
      versions: [
        {
          additionalPrinterColumns: input.columns,
          name: 'v1',
          schema: { openAPIV3Schema },
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
  };
}

const readyColumn: PrinterColumn = { jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: 'Ready', type: 'string' };
const ageColumn: PrinterColumn = { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' };

/** The karpenter.sh/v1 NodePool CRD. */
export function nodePoolCrd(): CustomResourceDefinition {
  return crd({
    group: KarpenterGroup,
    kind: 'NodePool',
    plural: 'nodepools',
    schema: NodePoolSchema,
    descriptions: nodePoolDescriptions,
    columns: [
      { jsonPath: '.spec.template.spec.nodeClassRef.name', name: 'NodeClass', type: 'string' },
      { jsonPath: '.status.resources.nodes', name: 'Nodes', type: 'string' },
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
      { jsonPath: '.status.providerID', name: 'ID', priority: 1, type: 'string' },
      { jsonPath: '.metadata.labels.karpenter\\.sh/nodepool', name: 'NodePool', priority: 1, type: 'string' },
      { jsonPath: '.spec.nodeClassRef.name', name: 'NodeClass', priority: 1, type: 'string' },
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
    descriptions: ec2NodeClassDescriptions,
    columns: [readyColumn, ageColumn, { jsonPath: '.spec.role', name: 'Role', priority: 1, type: 'string' }],
  });
}
