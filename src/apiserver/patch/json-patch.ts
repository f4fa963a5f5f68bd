/** RFC 6902 JSON patch. */
import { ApiError } from '../status.js';
import { isJson } from '../types.js';

type Container = Record<string, unknown> | unknown[];

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function fail(message: string): never {
  throw new ApiError(422, 'Invalid', message);
}

function parent(doc: unknown, path: string): { container: Container; key: string } {
  if (!path.startsWith('/')) fail(`the JSON patch path ${JSON.stringify(path)} must start with "/"`);
  const tokens = path.slice(1).split('/').map(unescape);
  const key = tokens.pop() ?? '';
  let cur: unknown = doc;
  for (const t of tokens) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isJson(cur) ? cur[t] : undefined;
    if (cur === undefined) fail(`doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(cur) && !isJson(cur)) fail(`doc is missing path: "${path}": missing value`);
  return { container: cur, key };
}

function read(doc: unknown, path: string): unknown {
  if (path === '') return doc;
  const { container, key } = parent(doc, path);
  const v = Array.isArray(container) ? container[Number(key)] : container[key];
  if (v === undefined) fail(`doc is missing path: "${path}": missing value`);
  return v;
}

function remove(doc: unknown, path: string): unknown {
  const { container, key } = parent(doc, path);
  if (Array.isArray(container)) {
    const i = Number(key);
    if (!(i >= 0 && i < container.length)) fail(`unable to remove nonexistent key: ${key}: missing value`);
    return container.splice(i, 1)[0];
  }
  if (!(key in container)) fail(`unable to remove nonexistent key: ${key}: missing value`);
  const v = container[key];
  delete container[key];
  return v;
}

function add(doc: unknown, path: string, value: unknown, replace: boolean): void {
  const { container, key } = parent(doc, path);
  if (Array.isArray(container)) {
    const i = key === '-' ? container.length : Number(key);
    if (!(i >= 0 && i <= container.length))
      fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
    if (replace) container[i] = value;
    else container.splice(i, 0, value);
    return;
  }
  if (replace && !(key in container))
    fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  container[key] = value;
}

/** Applies a JSON patch to a copy of `doc`; a failing operation is a 422 with the upstream message. */
export function jsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops))
    throw new ApiError(400, 'BadRequest', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  const root = { doc: structuredClone(doc) };
  for (const raw of ops) {
    if (!isJson(raw)) continue;
    const path = `/doc${String(raw.path ?? '')}`;
    const from = `/doc${String(raw.from ?? '')}`;
    switch (raw.op) {
      case 'add':
        add(root, path, structuredClone(raw.value), false);
        break;
      case 'replace':
        add(root, path, structuredClone(raw.value), true);
        break;
      case 'remove':
        remove(root, path);
        break;
      case 'move':
        add(root, path, remove(root, from), false);
        break;
      case 'copy':
        add(root, path, structuredClone(read(root, from)), false);
        break;
      case 'test':
        if (JSON.stringify(read(root, path)) !== JSON.stringify(raw.value))
          fail(`testing value ${String(raw.path)} failed: test failed`);
        break;
      default:
        fail(`Unexpected kind: ${String(raw.op)}`);
    }
  }
  return root.doc;
}
