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

/** The largest document Tenon parses: kube-apiserver refuses request bodies past 3 MiB, so no object is larger. */
export const maxDocumentBytes = 3 * 1024 * 1024;

// A line that starts a document (`---` alone or followed by content) at column 0.
const documentStart = /^---(?=[ \t\r\n]|$)/gm;

/** The first document of `text` over `maxBytes` (its line and size), if any; found by a scan, without parsing. */
export function oversizedDocument(
  text: string,
  maxBytes = maxDocumentBytes,
): { line: number; bytes: number } | undefined {
  const starts = [0, ...[...text.matchAll(documentStart)].map((m) => m.index)];
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i] ?? 0;
    const to = starts[i + 1] ?? text.length;
    // UTF-16 length is a lower bound of the UTF-8 size; both are far past the limit for a huge document.
    if (to - from <= maxBytes) continue;
    const bytes = Buffer.byteLength(text.slice(from, to), 'utf8');
    if (bytes > maxBytes) return { line: text.slice(0, from).split('\n').length, bytes };
  }
  return undefined;
}

/**
 * Validates every document of a YAML (or JSON) stream against the CRD serving its apiVersion and kind, unknown
 * fields being errors as with kubectl's default strict field validation.
 * Documents of other kinds are reported as skipped; empty documents are ignored. Never throws. Documents are
 * parsed one at a time (a long stream never holds every parsed document), and a stream with a document over
 * `maxDocumentBytes` is refused whole, unparsed.
 */
export function* eachDocumentResult(opts: {
  text: string;
  crds: CustomResourceDefinition[];
}): Generator<DocumentResult> {
  const big = oversizedDocument(opts.text);
  if (big) {
    const mib = (big.bytes / 1024 / 1024).toFixed(1);
    yield unparsable(0, `the document at line ${big.line} is ${mib} MiB, over the 3 MiB limit of a Kubernetes object`);
    return;
  }
  let index = 0;
  try {
    for (const doc of new YAML.Composer().compose(new YAML.Parser().parse(opts.text))) {
      const i = index++;
      if (doc.errors.length > 0) {
        yield unparsable(i, doc.errors.map((e) => e.message).join('; '));
        continue;
      }
      const value: unknown = doc.toJS();
      if (value === null || value === undefined) continue;
      yield checkDocument(value, i, opts.crds);
    }
  } catch (e: unknown) {
    yield unparsable(index, e instanceof Error ? e.message : String(e));
  }
}

/** eachDocumentResult, collected. */
export function validateDocuments(opts: { text: string; crds: CustomResourceDefinition[] }): DocumentResult[] {
  return [...eachDocumentResult(opts)];
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
