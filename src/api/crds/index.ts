import YAML from 'yaml';
import { capacityBufferCrd, ec2NodeClassCrd, nodeClaimCrd, nodeOverlayCrd, nodePoolCrd } from './definitions.js';
import type { CustomResourceDefinition } from './types.js';
import type { JsonSchemaProps } from '../schema/json-schema-props.js';

export type { CustomResourceDefinition, CustomResourceDefinitionVersion, PrinterColumn } from './types.js';
export { nodePoolCrd, nodeClaimCrd, ec2NodeClassCrd, nodeOverlayCrd, capacityBufferCrd } from './definitions.js';

/** The CRDs Tenon serves (NodePool, NodeClaim, EC2NodeClass, NodeOverlay, CapacityBuffer), ready to install. */
export function tenonCrds(): CustomResourceDefinition[] {
  return [nodePoolCrd(), nodeClaimCrd(), ec2NodeClassCrd(), nodeOverlayCrd(), capacityBufferCrd()];
}

/** The file name upstream uses for a CRD in charts (e.g. `karpenter.sh_nodepools.yaml`). */
export function crdFileName(crd: CustomResourceDefinition): string {
  return `${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}

/** One CRD as a YAML document (with the leading `---` upstream files carry). */
export function crdYaml(crd: CustomResourceDefinition): string {
  return `---\n${YAML.stringify(crd, { lineWidth: 0, indentSeq: true })}`;
}

/** Every CRD as one multi-document YAML stream. */
export function tenonCrdsYaml(): string {
  return tenonCrds().map(crdYaml).join('');
}

/** The openAPIV3Schema of a CRD's served storage version. */
export function crdSchema(crd: CustomResourceDefinition): JsonSchemaProps {
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  return version?.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

/** The Tenon CRD serving `apiVersion`/`kind`, if any. */
export function findTenonCrd(apiVersion: string, kind: string): CustomResourceDefinition | undefined {
  return tenonCrds().find(
    (c) => c.spec.names.kind === kind && c.spec.versions.some((v) => `${c.spec.group}/${v.name}` === apiVersion),
  );
}
