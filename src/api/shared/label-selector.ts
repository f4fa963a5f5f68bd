/**
 * Label selectors (apimachinery's labels package): the structured metav1.LabelSelector of workloads, PDBs and pod
 * affinity terms, the text form of list and watch queries (`app=web,tier notin (db)`), and matching labels against
 * either. The one implementation for the API server, the scheduling engine, the controllers and the playground; the
 * placement checker keeps its own on purpose (it is an independent oracle).
 */

/** A metav1.LabelSelector. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** One requirement: `key in (a,b)`, `key notin (a)`, `key`, `!key`, `key=a`, `key!=a`. */
export interface LabelRequirement {
  key: string;
  op: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

/** A compiled selector. */
export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

/** Label selector text that does not parse; the message is kube-apiserver's. */
export class LabelSelectorSyntaxError extends Error {}

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
  throw new LabelSelectorSyntaxError(`unable to parse requirement: found '${part.trim()}' in label selector '${text}'`);
}

/** Parses label selector text; empty selects everything. Throws LabelSelectorSyntaxError. */
export function parseLabelSelectorText(text: string | null | undefined): LabelRequirement[] {
  if (!text) return [];
  return splitTop(text).map((p) => parseOne(p, text));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The requirements of a metav1.LabelSelector read from any JSON; undefined or `{}` selects everything. */
export function selectorRequirements(sel: unknown): LabelRequirement[] {
  if (!isRecord(sel)) return [];
  const reqs: LabelRequirement[] = [];
  if (isRecord(sel.matchLabels))
    for (const [k, v] of Object.entries(sel.matchLabels)) reqs.push({ key: k, op: 'In', values: [String(v)] });
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isRecord(e)) continue;
      const op = e.operator as LabelRequirement['op'];
      reqs.push({ key: String(e.key), op, values: Array.isArray(e.values) ? e.values.map(String) : [] });
    }
  }
  return reqs;
}

/** True when the labels satisfy every requirement. */
export function matchesRequirements(
  reqs: readonly LabelRequirement[],
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const r of reqs) {
    const v = labels?.[r.key];
    switch (r.op) {
      case 'In':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'NotIn':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'Exists':
        if (v === undefined) return false;
        break;
      case 'DoesNotExist':
        if (v !== undefined) return false;
        break;
    }
  }
  return true;
}

/** Compiles a selector; an absent selector matches nothing (as in pod affinity terms), an empty one everything. */
export function compileSelector(selector: LabelSelector | undefined): LabelMatcher {
  if (!selector) return () => false;
  const reqs = selectorRequirements(selector);
  return (labels) => matchesRequirements(reqs, labels);
}

/** A stable text form of a selector, for hashing (topology groups). */
export function selectorKey(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  const labels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const exprs = (selector.matchExpressions ?? []).map(
    (e) => `${e.key} ${e.operator} ${[...(e.values ?? [])].sort().join(',')}`,
  );
  return JSON.stringify([labels, exprs.sort()]);
}
