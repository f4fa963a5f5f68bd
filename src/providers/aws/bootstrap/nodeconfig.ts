import { parseAllDocuments } from 'yaml';
import { parseMime, type MimePart, NodeConfigType, ShellScriptType, looksLikeMime } from './mime.js';

/** A plain JSON-like object. */
export type Obj = Record<string, unknown>;

/** One NodeConfig document found in userData, or why it could not be read. */
export interface NodeConfigDoc {
  /** 0-based MIME part index. */
  part: number;
  /** 1-based document index within the part. */
  document: number;
  /** 1-based line within the part where the document starts. */
  line: number;
  spec?: Obj;
  error?: string;
}

/** True for a plain object. */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for MIME parts nodeadm reads as NodeConfig. */
export function isNodeConfigPart(part: MimePart): boolean {
  return part.contentType.toLowerCase().startsWith(NodeConfigType);
}

/**
 * Splits AL2023 userData into parts the way Karpenter does: a MIME archive as it is; a bare text is a
 * NodeConfig part when it parses as a YAML map, otherwise a shell script.
 */
export function parseAl2023Parts(userData: string): ReturnType<typeof parseMime> {
  if (looksLikeMime(userData)) return parseMime(userData);
  return parseMime(userData, isYamlMap(userData) ? NodeConfigType : ShellScriptType);
}

function isYamlMap(text: string): boolean {
  try {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs)) return false;
    return docs.length > 0 && docs.every((d) => d.errors.length === 0 && isObj(d.toJSON()));
  } catch {
    return false;
  }
}

/** Reads every NodeConfig document of the NodeConfig parts, in order. Never throws. */
export function readNodeConfigs(parts: readonly MimePart[]): NodeConfigDoc[] {
  const out: NodeConfigDoc[] = [];
  parts.forEach((part, index) => {
    if (!isNodeConfigPart(part)) return;
    let docs: ReturnType<typeof parseAllDocuments>;
    try {
      docs = parseAllDocuments(part.content);
    } catch (e: unknown) {
      out.push({ part: index, document: 1, line: 1, error: String(e) });
      return;
    }
    const list = Array.isArray(docs) ? docs : [];
    list.forEach((doc, d) => {
      const line = lineOf(part.content, doc.range?.[0] ?? 0);
      const at = { part: index, document: d + 1, line };
      if (doc.errors.length > 0) {
        out.push({ ...at, error: doc.errors[0]?.message ?? 'invalid YAML' });
        return;
      }
      const value: unknown = doc.toJSON();
      if (value === null || value === undefined) return;
      out.push(checkDoc(value, at));
    });
  });
  return out;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function checkDoc(value: unknown, at: { part: number; document: number; line: number }): NodeConfigDoc {
  if (!isObj(value)) return { ...at, error: 'a NodeConfig document must be a YAML map' };
  if (
    value.kind !== 'NodeConfig' ||
    typeof value.apiVersion !== 'string' ||
    !value.apiVersion.startsWith('node.eks.aws/')
  ) {
    return {
      ...at,
      error: `nodeadm cannot decode apiVersion "${String(value.apiVersion)}" kind "${String(value.kind)}" (expected node.eks.aws/v1alpha1 NodeConfig)`,
    };
  }
  return { ...at, spec: isObj(value.spec) ? value.spec : {} };
}

function isEmpty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === '' ||
    v === 0 ||
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (isObj(v) && Object.keys(v).length === 0)
  );
}

/** mergo.Merge WithOverride: maps merge key by key, non-empty source values replace, empty ones never do. */
export function mergeOverride(dst: Obj, src: Obj): Obj {
  const out: Obj = { ...dst };
  for (const [k, v] of Object.entries(src)) {
    const d = out[k];
    if (isObj(d) && isObj(v)) out[k] = mergeOverride(d, v);
    else if (!isEmpty(v)) out[k] = v;
  }
  return out;
}

/**
 * nodeadm's merge of NodeConfig specs, in document order: the later document wins for scalars, maps
 * (kubelet.config included) merge key by key, lists are replaced, except `kubelet.flags`, which is appended
 * (pflag makes the later flag win, and map flags such as --node-labels merge).
 */
export function mergeNodeConfigs(specs: readonly Obj[]): Obj {
  let merged: Obj = {};
  for (const spec of specs) {
    const flags = [...flagsOf(merged), ...flagsOf(spec)];
    merged = mergeOverride(merged, spec);
    const kubelet = isObj(merged.kubelet) ? merged.kubelet : {};
    if (flags.length > 0) merged.kubelet = { ...kubelet, flags };
  }
  return merged;
}

/** The `kubelet.flags` list of a spec. */
export function flagsOf(spec: Obj): string[] {
  const kubelet = spec.kubelet;
  if (!isObj(kubelet) || !Array.isArray(kubelet.flags)) return [];
  return kubelet.flags.map(String);
}

/** The `kubelet.config` map of a spec. */
export function configOf(spec: Obj): Obj {
  const kubelet = spec.kubelet;
  return isObj(kubelet) && isObj(kubelet.config) ? kubelet.config : {};
}
