/** meta.k8s.io/v1 Table responses for `kubectl get`: built-in printers or a CRD's printer columns. */
import type { PrinterColumn } from '../../api/index.js';
import { age, builtinColumns, type Column } from './builtin-columns.js';
import { humanDuration } from './human-duration.js';
import { evaluateJsonPath } from './jsonpath.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { KObject } from '../types.js';

function crdCell(pc: PrinterColumn): Column['cell'] {
  return (o, now) => {
    const v = evaluateJsonPath(o, pc.jsonPath)[0];
    if (v === undefined || v === null) return pc.type === 'date' ? '<unknown>' : null;
    if (pc.type === 'date' && typeof v === 'string') return humanDuration(now - Date.parse(v));
    if (typeof v === 'object') return JSON.stringify(v);
    return v;
  };
}

/** The columns of a resource: a CRD's printer columns (Name first, Age when it has none) or the built-in ones. */
export function columnsOf(info: ResourceInfo): Column[] {
  if (!info.custom) return builtinColumns(info.kind);
  const name: Column = {
    name: 'Name',
    type: 'string',
    format: 'name',
    priority: 0,
    description: 'Name',
    cell: (o) => o.metadata.name ?? '',
  };
  const pcs = info.printerColumns ?? [];
  if (pcs.length === 0) return [name, { name: 'Age', type: 'date', priority: 0, description: 'Age', cell: age }];
  return [
    name,
    ...pcs.map((pc) => ({
      name: pc.name,
      type: pc.type === 'date' ? 'date' : pc.type,
      format: pc.format,
      priority: pc.priority ?? 0,
      description: pc.description ?? '',
      cell: crdCell(pc),
    })),
  ];
}

/** Options of a table rendering. */
export interface TableOptions {
  now: number;
  resourceVersion: string;
  continueToken?: string;
  remaining?: number;
  /** `includeObject=Object` returns the full object in each row (kubectl get --sort-by). */
  includeObject?: boolean;
  /** Leave out column definitions (watch events after the first). */
  noHeaders?: boolean;
}

function rowOf(cols: Column[], o: KObject, opts: TableOptions): Record<string, unknown> {
  const object = opts.includeObject
    ? o
    : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
  return { cells: cols.map((c) => c.cell(o, opts.now)), object };
}

/** A Table of objects. */
export function renderTable(info: ResourceInfo, objects: KObject[], opts: TableOptions): Record<string, unknown> {
  const cols = columnsOf(info);
  const metadata: Record<string, unknown> = { resourceVersion: opts.resourceVersion };
  if (opts.continueToken) metadata.continue = opts.continueToken;
  if (opts.remaining !== undefined) metadata.remainingItemCount = opts.remaining;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: opts.noHeaders
      ? null
      : cols.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? '',
          description: c.description,
          priority: c.priority,
        })),
    rows: objects.map((o) => rowOf(cols, o, opts)),
  };
}
