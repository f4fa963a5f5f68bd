import type { ResourceList } from '../api/index.js';

/** A resource list as quantity strings (the API allows numbers too). */
export function quantities(list: Record<string, string | number> | undefined): ResourceList | undefined {
  return list ? Object.fromEntries(Object.entries(list).map(([k, v]) => [k, String(v)])) : undefined;
}
