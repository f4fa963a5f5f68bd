/**
 * Saved state (`--state FILE`): every stored object and the resourceVersion counter, as JSON lines. The first
 * line is a header; each further line is one object with its resource. CRDs come first so that loading can
 * serve their resources before it meets their objects. Writes go to a temporary file renamed over the old one,
 * so a crash mid-write leaves the previous state intact.
 */
import fs from 'node:fs';
import type { CustomResourceDefinition } from '../../api/index.js';
import { restoreEntry } from './commit.js';
import { resourcesOfCrd } from '../resources/crds.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import type { ServerState } from '../state.js';
import type { ResourceTable } from './store.js';
import { isJson, type KObject } from '../types.js';

const stateKind = 'TenonApiServerState';
const stateVersion = 1;

/** The first line of a state file. */
export interface StateHeader {
  kind: typeof stateKind;
  version: number;
  resourceVersion: string;
  /** The server clock (ms since the epoch) when saved: a simulated clock resumes from it. */
  savedAtMs: number;
}

const crdPlural = 'customresourcedefinitions';

function resourceName(info: ResourceInfo): string {
  return `${info.group}/${info.version}/${info.plural}`;
}

// CRDs first (their resources must be served before their objects load), then namespaces, then the rest.
function tableOrder(t: ResourceTable): number {
  if (t.info.plural === crdPlural && !t.info.custom) return 0;
  return t.info.plural === 'namespaces' && t.info.group === '' ? 1 : 2;
}

/** The state's lines as buffers, captured at one instant (entries are immutable, so no copy is needed). */
function stateChunks(state: ServerState): Buffer[] {
  const header: StateHeader = {
    kind: stateKind,
    version: stateVersion,
    resourceVersion: String(state.store.currentRv()),
    savedAtMs: state.clock.now(),
  };
  const out: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  const close = Buffer.from('}\n');
  const tables = state.store.allTables().sort((a, b) => tableOrder(a) - tableOrder(b));
  for (const t of tables) {
    const prefix = Buffer.from(`{"resource":${JSON.stringify(resourceName(t.info))},"object":`);
    for (const e of t.objects.values()) out.push(prefix, e.json, close);
  }
  return out;
}

/** Writes the state to `file` atomically (temporary file, then rename). */
export async function saveState(state: ServerState, file: string): Promise<void> {
  const chunks = stateChunks(state);
  const tmp = `${file}.tmp-${process.pid}`;
  const fh = await fs.promises.open(tmp, 'w', 0o600);
  try {
    // ~1 MiB writes: one per object would be hundreds of thousands of system calls.
    for (let i = 0; i < chunks.length;) {
      const batch: Buffer[] = [];
      let size = 0;
      for (; i < chunks.length && size < 1 << 20; i++) {
        const c = chunks[i];
        if (c) batch.push(c);
        size += c?.length ?? 0;
      }
      await fh.write(Buffer.concat(batch));
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fs.promises.rename(tmp, file);
}

/** A state file that cannot be loaded. */
export class StateFileError extends Error {
  /** Builds the error naming the file and what is wrong with it. */
  constructor(file: string, detail: string) {
    super(`cannot load API server state from ${file}: ${detail}`);
    this.name = 'StateFileError';
  }
}

function* lines(buf: Buffer): Generator<{ text: string; n: number }> {
  let n = 0;
  for (let start = 0; start < buf.length;) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    n++;
    const text = buf.toString('utf8', start, end);
    if (text.trim()) yield { text, n };
    start = end + 1;
  }
}

function parseHeader(file: string, text: string | undefined): StateHeader {
  let h: unknown;
  try {
    h = text === undefined ? undefined : JSON.parse(text);
  } catch {
    h = undefined;
  }
  if (!isJson(h) || h.kind !== stateKind)
    throw new StateFileError(file, `the first line is not a ${stateKind} header (is it a Tenon state file?)`);
  if (h.version !== stateVersion)
    throw new StateFileError(
      file,
      `state version ${String(h.version)} is not supported (this Tenon reads version ${stateVersion})`,
    );
  if (!/^\d+$/.test(String(h.resourceVersion)) || typeof h.savedAtMs !== 'number')
    throw new StateFileError(file, 'the header has no valid resourceVersion or savedAtMs');
  return h as unknown as StateHeader;
}

function parseLine(file: string, line: { text: string; n: number }): { resource: string; object: KObject } {
  let v: unknown;
  try {
    v = JSON.parse(line.text);
  } catch (e: unknown) {
    throw new StateFileError(
      file,
      `line ${line.n} is not JSON (${e instanceof Error ? e.message : String(e)}); the file is truncated or corrupt`,
    );
  }
  if (!isJson(v) || typeof v.resource !== 'string' || !isJson(v.object) || !isJson(v.object.metadata)) {
    throw new StateFileError(file, `line ${line.n} is not a {"resource", "object"} record`);
  }
  return { resource: v.resource, object: v.object as KObject };
}

function restoreLine(state: ServerState, file: string, line: { text: string; n: number }): void {
  const { resource, object } = parseLine(file, line);
  const [group = '', version = '', plural = ''] = resource.split('/');
  const info = state.registry.find(group, version, plural);
  if (!info)
    throw new StateFileError(
      file,
      `line ${line.n}: resource ${resource} is not served (its CustomResourceDefinition is missing)`,
    );
  restoreEntry(state, info, object);
  if (plural === crdPlural && !info.custom)
    for (const r of resourcesOfCrd(object as unknown as CustomResourceDefinition)) state.registry.add(r);
}

/** Reads the header of a state file, or undefined when the file does not exist. */
export function readStateHeader(file: string): StateHeader | undefined {
  if (!fs.existsSync(file)) return undefined;
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const first = buf.toString('utf8', 0, n).split('\n')[0];
    return parseHeader(file, first);
  } finally {
    fs.closeSync(fd);
  }
}

/** Loads a state file into an empty server state; returns false when the file does not exist yet. */
export function loadState(state: ServerState, file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const it = lines(fs.readFileSync(file));
  const first = it.next();
  const header = parseHeader(file, first.done ? undefined : first.value.text);
  state.store.setRv(Number(header.resourceVersion));
  for (const line of it) restoreLine(state, file, line);
  return true;
}
