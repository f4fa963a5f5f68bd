/** List queries: selectors, namespaces and limit/continue pagination over a resource's table. */
import {
  checkFieldsKnown,
  matchesFields,
  parseFieldSelector,
  type FieldRequirement,
} from '../selectors/field-selectors.js';
import { matchesRequirements, type LabelRequirement } from '../../api/index.js';
import { parseLabelSelector } from '../selectors/label-selectors.js';
import { ApiError, badRequest } from '../status.js';
import type { Entry, ResourceTable } from '../storage/store.js';
import { mergeSorted } from '../storage/sorted-keys.js';

/** What to select. */
export interface Filter {
  namespace?: string;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

/** Parses the selector query parameters, rejecting fields the kind does not make selectable. */
export function filterFromQuery(q: URLSearchParams, namespace: string | undefined, table: ResourceTable): Filter {
  const fields = parseFieldSelector(q.get('fieldSelector'));
  checkFieldsKnown(fields, table.info.kind);
  return { namespace, labels: parseLabelSelector(q.get('labelSelector')), fields };
}

/** True when an entry passes the filter. */
export function matches(f: Filter, e: Entry): boolean {
  if (f.namespace !== undefined && !e.inNamespace(f.namespace)) return false;
  if (f.labels.length > 0 && !matchesRequirements(f.labels, e.labels)) return false;
  return f.fields.length === 0 || matchesFields(f.fields, e);
}

/** One page of a list. */
export interface Page {
  entries: Entry[];
  /** The resourceVersion the page shows the table at (the first page's, for continued lists). */
  rv: number;
  continueToken?: string;
  remaining?: number;
}

interface ContinueState {
  rv: number;
  start: string;
}

function decodeContinue(token: string): ContinueState {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueState;
    if (typeof v.start !== 'string' || typeof v.rv !== 'number') throw new Error('shape');
    return v;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

// First index whose key sorts after `key` (keys are sorted).
function after(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] ?? '') <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The table as it was at `rv`: entries changed since then are swapped for the version they replaced (from
// the watch history), and entries created since are left out. Continue pages read this view, so a paginated
// list is one consistent snapshot, as etcd serves it.
interface View {
  keys: readonly string[];
  get(key: string): Entry | undefined;
}

function viewAt(table: ResourceTable, rv: number): View {
  const since = table.eventsSince(rv) ?? [];
  if (since.length === 0) return { keys: table.keys(), get: (k) => table.objects.get(k) };
  const before = new Map<string, Entry | undefined>();
  for (const ev of since)
    if (!before.has(ev.entry.key)) before.set(ev.entry.key, ev.type === 'ADDED' ? undefined : ev.prev);
  const gone = [...before].filter(([k, e]) => e && !table.objects.has(k)).map(([k]) => k);
  const keys = gone.length > 0 ? mergeSorted(table.keys(), gone.sort()) : table.keys();
  return { keys, get: (k) => (before.has(k) ? before.get(k) : table.objects.get(k)) };
}

function collect(view: View, f: Filter, opts: { from: number; limit: number }): { entries: Entry[]; next: number } {
  const entries: Entry[] = [];
  let i = opts.from;
  for (; i < view.keys.length; i++) {
    const e = view.get(view.keys[i] ?? '');
    if (!e || !matches(f, e)) continue;
    if (opts.limit > 0 && entries.length >= opts.limit) break;
    entries.push(e);
  }
  return { entries, next: i };
}

/**
 * Selects a page: at most `limit` entries (0 = all) after the continue token's key, in key order. Pages after
 * the first show the table as of the first page's resourceVersion (`rv` of the result).
 */
export function listPage(
  table: ResourceTable,
  f: Filter,
  opts: { limit: number; continueToken?: string | null; rv: number },
): Page {
  const state = opts.continueToken ? decodeContinue(opts.continueToken) : undefined;
  if (state && state.rv < table.compactedRv) {
    throw new ApiError(
      410,
      'Expired',
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
    );
  }
  const rv = state?.rv ?? opts.rv;
  const view = state ? viewAt(table, state.rv) : { keys: table.keys(), get: (k: string) => table.objects.get(k) };
  const { entries, next } = collect(view, f, { from: state ? after(view.keys, state.start) : 0, limit: opts.limit });
  if (next >= view.keys.length) return { entries, rv };
  const last = entries[entries.length - 1]?.key ?? '';
  const token = Buffer.from(JSON.stringify({ rv, start: last })).toString('base64url');
  return { entries, continueToken: token, remaining: view.keys.length - next, rv };
}
