/** Label selectors: the text form of list/watch queries and the structured form of PDBs and workloads. */
import { badRequest } from '../status.js';
import { isJson } from '../types.js';

/** One requirement: `key in (a,b)`, `key notin (a)`, `key`, `!key`, `key=a`, `key!=a`. */
export interface LabelRequirement {
  key: string;
  op: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

const setPattern = /^\s*([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)\s*$/;
const eqPattern = /^\s*([^\s!=(),]+)\s*(==|=|!=)\s*([^\s,()]*)\s*$/;
const existsPattern = /^\s*(!?)\s*([^\s!=(),]+)\s*$/;

// Splits on commas outside parentheses.
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.filter((p) => p.trim() !== '');
}

function parseOne(part: string, text: string): LabelRequirement {
  const set = setPattern.exec(part);
  if (set) {
    const values = (set[3] ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return { key: set[1] ?? '', op: set[2] === 'in' ? 'In' : 'NotIn', values };
  }
  const eq = eqPattern.exec(part);
  if (eq) return { key: eq[1] ?? '', op: eq[2] === '!=' ? 'NotIn' : 'In', values: [eq[3] ?? ''] };
  const ex = existsPattern.exec(part);
  if (ex) return { key: ex[2] ?? '', op: ex[1] ? 'DoesNotExist' : 'Exists', values: [] };
  throw badRequest(`unable to parse requirement: found '${part.trim()}' in label selector '${text}'`);
}

/** Parses label selector text; empty selects everything. */
export function parseLabelSelector(text: string | null): LabelRequirement[] {
  if (!text) return [];
  return splitTop(text).map((p) => parseOne(p, text));
}

/** Converts a metav1.LabelSelector (matchLabels/matchExpressions); undefined or `{}` selects everything. */
export function fromLabelSelector(sel: unknown): LabelRequirement[] {
  if (!isJson(sel)) return [];
  const reqs: LabelRequirement[] = [];
  if (isJson(sel.matchLabels))
    for (const [k, v] of Object.entries(sel.matchLabels)) reqs.push({ key: k, op: 'In', values: [String(v)] });
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isJson(e)) continue;
      const op = e.operator as LabelRequirement['op'];
      reqs.push({ key: String(e.key), op, values: Array.isArray(e.values) ? e.values.map(String) : [] });
    }
  }
  return reqs;
}

/** True when the labels satisfy every requirement. */
export function matchesLabels(reqs: LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  for (const r of reqs) {
    const v = labels?.[r.key];
    const ok =
      r.op === 'Exists'
        ? v !== undefined
        : r.op === 'DoesNotExist'
          ? v === undefined
          : r.op === 'In'
            ? v !== undefined && r.values.includes(v)
            : v === undefined || !r.values.includes(v);
    if (!ok) return false;
  }
  return true;
}
