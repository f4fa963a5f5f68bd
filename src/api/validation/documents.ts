import YAML from 'yaml';
import type { CustomResourceDefinition } from '../crds/types.js';
import { crdSchema } from '../crds/index.js';
import { invalid, required, type FieldError } from './errors.js';
import { prunedFieldPaths, unknownField } from './unknown-fields.js';
import { validateAndDefault } from './validate.js';

/** The outcome for one document of a multi-document YAML stream. */
export interface DocumentResult {
  /** Zero-based position of the document in the stream. */
  index: number;
  kind: string;
  name: string;
  /** `validated`: checked against a CRD; `skipped`: a kind no CRD serves; `unparsable`: not YAML or not an object. */
  status: 'validated' | 'skipped' | 'unparsable';
  errors: FieldError[];
  /** The defaulted object, when validated. */
  object?: unknown;
}

function crdFor(
  crds: CustomResourceDefinition[],
  apiVersion: unknown,
  kind: unknown,
): CustomResourceDefinition | undefined {
  return crds.find(
    (c) => c.spec.names.kind === kind && c.spec.versions.some((v) => `${c.spec.group}/${v.name}` === apiVersion),
  );
}

/**
 * Validates every document of a YAML (or JSON) stream against the CRD serving its apiVersion and kind, unknown
 * fields being errors as with kubectl's default strict field validation.
 * Documents of other kinds are reported as skipped; empty documents are ignored. Never throws.
 */
export function validateDocuments(opts: { text: string; crds: CustomResourceDefinition[] }): DocumentResult[] {
  const results: DocumentResult[] = [];
  let docs: YAML.Document.Parsed[];
  try {
    docs = YAML.parseAllDocuments(opts.text);
  } catch (e: unknown) {
    return [unparsable(0, e instanceof Error ? e.message : String(e))];
  }
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      results.push(unparsable(index, doc.errors.map((e) => e.message).join('; ')));
      return;
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    results.push(checkDocument(value, index, opts.crds));
  });
  return results;
}

function checkDocument(value: unknown, index: number, crds: CustomResourceDefinition[]): DocumentResult {
  if (typeof value !== 'object' || Array.isArray(value) || value === null) {
    return unparsable(index, 'document is not an object');
  }
  const obj = value as Record<string, unknown>;
  const meta = obj.metadata as Record<string, unknown> | undefined;
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const name = typeof meta?.name === 'string' ? meta.name : '';
  const crd = crdFor(crds, obj.apiVersion, obj.kind);
  if (!crd) return { index, kind, name, status: 'skipped', errors: [] };
  const result = validateAndDefault({ schema: crdSchema(crd), object: value });
  // Unknown fields first, as kube-apiserver's strict decoding refuses them before it validates.
  const errors = [...prunedFieldPaths(value, result.object).map(unknownField), ...result.errors];
  if (name === '' && typeof meta?.generateName !== 'string')
    errors.unshift(required('metadata.name', 'name or generateName is required'));
  return { index, kind, name, status: 'validated', errors, object: result.object };
}

function unparsable(index: number, message: string): DocumentResult {
  return { index, kind: '', name: '', status: 'unparsable', errors: [invalid('<document>', '', message)] };
}
