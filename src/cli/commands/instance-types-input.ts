/**
 * The manifests `tenon instance-types` reads: any number of multi-document files (Karpenter's examples put a
 * NodePool and its EC2NodeClass in one), with `${CLUSTER_NAME}` filled in as the examples ask the reader to.
 */
import { parseAllDocuments } from 'yaml';
import type { EC2NodeClass } from '../../api/index.js';
import type { NodePool } from '../../cloudprovider/index.js';
import { readInputFile } from '../input-file.js';

/** The NodePool and EC2NodeClass to list for, or why they cannot be chosen (a usage error). */
export type InstanceTypesInput =
  { ok: true; nodePool?: NodePool; nodeClass?: EC2NodeClass } | { ok: false; message: string };

interface Named {
  kind?: string;
  metadata?: { name?: string };
}

function documents(file: string, cluster: string): Named[] {
  const out: Named[] = [];
  const text = readInputFile(file, 'manifest').replaceAll('${CLUSTER_NAME}', cluster);
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0)
      throw new Error(`${file}: document ${i + 1} is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
    const v: unknown = doc.toJS();
    if (v !== null && typeof v === 'object') out.push(v as Named);
  });
  return out;
}

function pick<T extends Named>(
  kind: string,
  found: T[],
  name: string | undefined,
  flag: string,
): { ok: true; value?: T } | { ok: false; message: string } {
  const names = found.map((o) => o.metadata?.name ?? '?');
  if (name !== undefined) {
    const value = found.find((o) => o.metadata?.name === name);
    return value
      ? { ok: true, value }
      : { ok: false, message: `${flag}: no ${kind} named "${name}" (found: ${names.join(', ') || 'none'})` };
  }
  if (found.length > 1)
    return {
      ok: false,
      message: `the files hold ${found.length} ${kind}s (${names.join(', ')}): choose one with ${flag} NAME`,
    };
  return { ok: true, value: found[0] };
}

/** Reads the files and picks the NodePool (`poolName` when several) and the EC2NodeClass it refers to. */
export function readInstanceTypesInput(input: {
  files: readonly string[];
  cluster: string;
  poolName?: string;
  nodeClassName?: string;
}): InstanceTypesInput {
  let docs: Named[];
  try {
    docs = input.files.flatMap((f) => documents(f, input.cluster));
  } catch (e: unknown) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  const pool = pick(
    'NodePool',
    docs.filter((d) => d.kind === 'NodePool') as Array<NodePool & Named>,
    input.poolName,
    '--name',
  );
  if (!pool.ok) return pool;
  const classes = docs.filter((d) => d.kind === 'EC2NodeClass') as Array<EC2NodeClass & Named>;
  const wanted =
    input.nodeClassName ?? (classes.length > 1 ? pool.value?.spec.template.spec.nodeClassRef.name : undefined);
  const nodeClass = pick('EC2NodeClass', classes, wanted, '--nodeclass-name');
  if (!nodeClass.ok) return nodeClass;
  return { ok: true, nodePool: pool.value, nodeClass: nodeClass.value };
}
