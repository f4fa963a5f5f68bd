/** The JSONPath subset of CRD printer columns: `.a.b`, escaped dots, `[n]` and `[?(@.k=="v")]` filters. */
import { isJson } from '../types.js';

type Step = { field: string } | { index: number } | { filterKey: string; filterValue: string };

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      let field = '';
      i++;
      while (i < path.length && path[i] !== '.' && path[i] !== '[') {
        if (path[i] === '\\' && i + 1 < path.length) i++;
        field += path[i];
        i++;
      }
      if (field) steps.push({ field });
    } else if (path[i] === '[') {
      const end = path.indexOf(']', i);
      const inner = path.slice(i + 1, end < 0 ? path.length : end);
      const filter = /^\?\(@\.([\w.-]+)\s*==\s*["']([^"']*)["']\)$/.exec(inner);
      if (filter) steps.push({ filterKey: filter[1] ?? '', filterValue: filter[2] ?? '' });
      else steps.push({ index: Number(inner) });
      i = end < 0 ? path.length : end + 1;
    } else i++;
  }
  return steps;
}

function step(values: unknown[], s: Step): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if ('field' in s && isJson(v) && v[s.field] !== undefined) out.push(v[s.field]);
    else if ('index' in s && Array.isArray(v) && v[s.index] !== undefined) out.push(v[s.index]);
    else if ('filterKey' in s && Array.isArray(v)) {
      for (const item of v) if (isJson(item) && String(item[s.filterKey]) === s.filterValue) out.push(item);
    }
  }
  return out;
}

/** The values a printer-column path selects from an object (empty when nothing matches). */
export function evaluateJsonPath(obj: unknown, path: string): unknown[] {
  let values: unknown[] = [obj];
  for (const s of parse(path)) values = step(values, s);
  return values;
}
