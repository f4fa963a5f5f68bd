import type { JsonSchemaProps } from '../schema/json-schema-props.js';

/** A printer column of a CRD version. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  priority?: number;
  description?: string;
  format?: string;
}

/** One version of a CRD. */
export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema: JsonSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: Record<string, unknown> };
  additionalPrinterColumns?: PrinterColumn[];
  deprecated?: boolean;
}

/** The parts of apiextensions.k8s.io/v1 CustomResourceDefinition Tenon uses. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Cluster' | 'Namespaced';
    versions: CustomResourceDefinitionVersion[];
  };
}
