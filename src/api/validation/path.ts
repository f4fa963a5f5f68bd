/** Appends a property name to a field path (`spec` + `weight` = `spec.weight`). */
export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** Appends a list index (`requirements` + 0 = `requirements[0]`). */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** The path as kube-openapi names it inside messages (`<root>` for the whole object). */
export function inBody(path: string): string {
  return path === '' ? '<root>' : path;
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
