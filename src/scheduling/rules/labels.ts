/**
 * Plain label logic of the placement checker and the lower bound (scheduling/rules): label selectors over pod
 * labels, node selector requirements over a node whose labels may not be fully known yet (a new NodeClaim can still
 * become any of its instance types and offerings), and taint toleration. Written apart from the solver's
 * requirements algebra on purpose.
 */
import type { Taint, Toleration } from '../../api/index.js';
import type { LabelSelector, NodeSelectorRequirement, NodeSelectorTerm } from '../model.js';

/** The values a label may take on a node; `undefined` stands for "label absent". */
export type Possible = ReadonlySet<string | undefined>;

const absent: ReadonlySet<string | undefined> = new Set([undefined]);

/** What the checker knows of a node's labels: the possible values of each key (absent when not listed). */
export class NodeLabels {
  constructor(
    private readonly values: ReadonlyMap<string, Possible>,
    /** The node's name when known (existing nodes), for matchFields. */
    readonly nodeName?: string,
  ) {}

  /** Builds the view of a node whose labels are known exactly. */
  static exact(labels: Readonly<Record<string, string>>, nodeName?: string): NodeLabels {
    const m = new Map<string, Possible>();
    for (const [k, v] of Object.entries(labels)) m.set(k, new Set([v]));
    return new NodeLabels(m, nodeName);
  }

  /** Possible values of `key`. */
  possible(key: string): Possible {
    return this.values.get(key) ?? absent;
  }

  /** The single value of `key` when it is certain and present. */
  certain(key: string): string | undefined {
    const p = this.possible(key);
    if (p.size !== 1) return undefined;
    const [v] = p;
    return v;
  }
}

function integer(v: string | undefined): number | undefined {
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}

/** Whether one label value (or absence) satisfies one requirement, with Karpenter's extra Gte/Lte. */
export function valueSatisfies(
  req: Pick<NodeSelectorRequirement, 'operator' | 'values'>,
  v: string | undefined,
): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return v !== undefined && values.includes(v);
    case 'NotIn':
      return v === undefined || !values.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    default:
      return compareInteger(req.operator, integer(v), integer(values[0]));
  }
}

function compareInteger(op: string, n: number | undefined, bound: number | undefined): boolean {
  if (n === undefined || bound === undefined) return false;
  if (op === 'Gt') return n > bound;
  if (op === 'Lt') return n < bound;
  if (op === 'Gte') return n >= bound;
  if (op === 'Lte') return n <= bound;
  return false;
}

/** The first requirement of `reqs` that some possible label value of `node` fails, if any. */
export function firstNotAlways(
  node: NodeLabels,
  reqs: readonly NodeSelectorRequirement[],
): NodeSelectorRequirement | undefined {
  for (const r of reqs) {
    for (const v of node.possible(r.key)) if (!valueSatisfies(r, v)) return r;
  }
  return undefined;
}

/** True when some possible value of each requirement's key satisfies it (the node may match). */
export function possiblyMatches(node: NodeLabels, reqs: readonly NodeSelectorRequirement[]): boolean {
  return reqs.every((r) => [...node.possible(r.key)].some((v) => valueSatisfies(r, v)));
}

/** True when a node selector term holds for every way the node may turn out (matchFields needs a known name). */
export function termAlwaysHolds(node: NodeLabels, term: NodeSelectorTerm): boolean {
  if (firstNotAlways(node, term.matchExpressions ?? [])) return false;
  for (const f of term.matchFields ?? []) {
    if (f.key !== 'metadata.name' || !valueSatisfies(f, node.nodeName)) return false;
  }
  return true;
}

/** `key op [values]`, for messages. */
export function formatRequirement(r: NodeSelectorRequirement): string {
  return `${r.key} ${r.operator}${r.values?.length ? ` [${r.values.join(',')}]` : ''}`;
}

/** Possible values of `key` on `node`, for messages. */
export function formatPossible(node: NodeLabels, key: string): string {
  return [...node.possible(key)].map((v) => v ?? '<absent>').join('|');
}

/** Whether `labels` match a label selector; an absent selector matches nothing (pod affinity terms, spread). */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    if (!valueSatisfies({ operator: e.operator, values: e.values }, labels[e.key])) return false;
  }
  return true;
}

/** True when one toleration tolerates the taint (core/v1 semantics). */
function tolerationMatches(t: Toleration, taint: Taint): boolean {
  if (t.effect !== undefined && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '');
}

/** The first NoSchedule/NoExecute taint the tolerations leave untolerated (PreferNoSchedule never blocks). */
export function blockingTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  return taints.find(
    (taint) => taint.effect !== 'PreferNoSchedule' && !tolerations.some((t) => tolerationMatches(t, taint)),
  );
}
