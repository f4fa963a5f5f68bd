/** Compares the answers of the embedded and the real API server, aspect by aspect. */
import { isDeepStrictEqual } from 'node:util';
import type { Res } from './endpoint.js';

/** One compared aspect of one request: agreed or not, with both sides when not. */
export interface Check {
  aspect: 'status' | 'reason' | 'causes' | 'object' | 'table' | 'events';
  agree: boolean;
  embedded?: unknown;
  real?: unknown;
}

const volatileMeta = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'selfLink']);
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Drops what differs by nature (uids, resourceVersions, times, generated name suffixes). */
export function normalize(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x));
  if (typeof v === 'string') {
    if (isoTime.test(v)) return '<time>';
    return v.replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-<id>');
  }
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (key === 'metadata' && volatileMeta.has(k)) continue;
    out[k] = normalize(x, k);
  }
  return out;
}

function obj(b: unknown): Record<string, unknown> | undefined {
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

function causeFields(b: unknown): string[] {
  const details = obj(obj(b)?.details);
  const causes = Array.isArray(details?.causes) ? (details.causes as unknown[]) : [];
  return [...new Set(causes.map((c) => String(obj(c)?.field ?? '')))].sort();
}

function tableColumns(b: unknown): string[] | undefined {
  const o = obj(b);
  if (o?.kind !== 'Table' || !Array.isArray(o.columnDefinitions)) return undefined;
  return (o.columnDefinitions as unknown[]).map((c) => `${String(obj(c)?.name)}:${String(obj(c)?.type)}`);
}

/** The paths at which two JSON values differ, each with both values (for reading a difference). */
export function differingPaths(a: unknown, b: unknown, at = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const [oa, ob] = [obj(a), obj(b)];
  if (oa && ob)
    return [...new Set([...Object.keys(oa), ...Object.keys(ob)])].flatMap((k) =>
      differingPaths(oa[k], ob[k], `${at}.${k}`),
    );
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => differingPaths(x, b[i], `${at}[${i}]`));
  return [`${at || '.'}: embedded ${JSON.stringify(a) ?? 'absent'} / real ${JSON.stringify(b) ?? 'absent'}`];
}

/** The value at a dotted path (`metadata.uid`, `items.0.metadata.name`) of a JSON body. */
export function pathValue(body: unknown, path: string): unknown {
  let cur: unknown = body;
  for (const part of path.split('.')) cur = Array.isArray(cur) ? cur[Number(part)] : obj(cur)?.[part];
  return cur;
}

/** The events of a watch answer: `TYPE name` for objects, `ERROR code reason` for a failure. */
export function watchEvents(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const ev = obj(JSON.parse(l) as unknown);
      const o = obj(ev?.object);
      if (ev?.type === 'ERROR') return `ERROR ${String(o?.code)} ${String(o?.reason)}`;
      return `${String(ev?.type)} ${String(obj(o?.metadata)?.name)}`;
    });
}

/** The aspects of two answers to the same request that can be compared, each agreed or not. */
export function compare(embedded: Res, real: Res, opts: { events?: boolean } = {}): Check[] {
  const checks: Check[] = [
    { aspect: 'status', agree: embedded.status === real.status, embedded: embedded.status, real: real.status },
  ];
  if (opts.events && embedded.status === 200 && real.status === 200) {
    const [e, r] = [watchEvents(embedded.text), watchEvents(real.text)];
    checks.push({ aspect: 'events', agree: isDeepStrictEqual(e, r), embedded: e, real: r });
    return checks;
  }
  if (real.status >= 400 && embedded.status >= 400) {
    const [e, r] = [obj(embedded.body)?.reason, obj(real.body)?.reason];
    checks.push({ aspect: 'reason', agree: e === r, embedded: e, real: r });
    const [ec, rc] = [causeFields(embedded.body), causeFields(real.body)];
    if (rc.length > 0 || ec.length > 0)
      checks.push({ aspect: 'causes', agree: isDeepStrictEqual(ec, rc), embedded: ec, real: rc });
    return checks;
  }
  if (real.status >= 300 || embedded.status >= 300) return checks;
  const rt = tableColumns(real.body);
  if (rt) {
    const et = tableColumns(embedded.body);
    checks.push({ aspect: 'table', agree: isDeepStrictEqual(et, rt), embedded: et, real: rt });
    return checks;
  }
  if (obj(obj(real.body)?.metadata)) {
    const [e, r] = [normalize(embedded.body), normalize(real.body)];
    const paths = differingPaths(e, r);
    checks.push({ aspect: 'object', agree: paths.length === 0, embedded: paths, real: undefined });
  }
  return checks;
}
