/** The `log` subresource of Pods: a container's log as kubectl asks for it (tail, since, timestamps, follow). */
import type { FaultInjector } from '../faults.js';
import type { Ctx } from '../http/http-io.js';
import type { ResourcePath } from '../http/resource-path.js';
import { mustGet } from '../storage/commit.js';
import { parseEntry } from '../storage/store.js';
import { badRequest } from '../status.js';
import { isJson, type KObject } from '../types.js';

/** One line of a container's log and when it was written. */
export interface PodLogLine {
  timeMs: number;
  /** The line without its newline. */
  text: string;
}

/** A container's log this process keeps (the kubelet's part, for the pods whose output lives in the process). */
export interface ContainerLog {
  /** The lines kept, oldest first. */
  lines(): readonly PodLogLine[];
  /** Calls `fn` with each new line until the returned function is called. */
  follow(fn: (line: PodLogLine) => void): () => void;
}

/** Finds a container's log; undefined when none is kept (a simulated container prints nothing). */
export type PodLogs = (namespace: string, pod: string, container: string) => ContainerLog | undefined;

/** The query parameters of PodLogOptions the server honours. */
interface LogQuery {
  container: string;
  follow: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceMs?: number;
  limitBytes?: number;
}

function containerNames(pod: KObject): string[] {
  const spec = isJson(pod.spec) ? pod.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  return containers.map((c) => (isJson(c) ? String(c.name ?? '') : ''));
}

function chosenContainer(ctx: Ctx, pod: KObject): string {
  const name = pod.metadata.name ?? '';
  const names = containerNames(pod);
  const asked = ctx.query.get('container');
  const chosen =
    asked ||
    (names.length === 1 ? names[0] : undefined) ||
    pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (!chosen)
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
  if (!names.includes(chosen)) throw badRequest(`container ${chosen} is not valid for pod ${name}`);
  return chosen;
}

function integer(ctx: Ctx, field: string, min: number): number | undefined {
  const text = ctx.query.get(field);
  if (text === null) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw badRequest(`PodLogOptions "" is invalid: ${field}: Invalid value: ${text}: must be an integer >= ${min}`);
  return n;
}

function flag(ctx: Ctx, field: string): boolean {
  const v = ctx.query.get(field);
  return v === 'true' || v === '1';
}

function sinceMs(ctx: Ctx): number | undefined {
  const seconds = integer(ctx, 'sinceSeconds', 1);
  const time = ctx.query.get('sinceTime');
  if (seconds !== undefined && time !== null)
    throw badRequest(
      'PodLogOptions "" is invalid: sinceSeconds: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    );
  if (seconds !== undefined) return ctx.state.clock.now() - seconds * 1000;
  if (time === null) return undefined;
  const ms = Date.parse(time);
  if (!Number.isFinite(ms))
    throw badRequest(`PodLogOptions "" is invalid: sinceTime: Invalid value: "${time}": not an RFC 3339 time`);
  return ms;
}

function logQuery(ctx: Ctx, pod: KObject): LogQuery {
  const container = chosenContainer(ctx, pod);
  if (flag(ctx, 'previous'))
    throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name ?? ''}" not found`);
  return {
    container,
    follow: flag(ctx, 'follow'),
    timestamps: flag(ctx, 'timestamps'),
    tailLines: integer(ctx, 'tailLines', 0),
    sinceMs: sinceMs(ctx),
    limitBytes: integer(ctx, 'limitBytes', 1),
  };
}

/** RFC 3339 with as many fraction digits as needed, as Go's RFC3339Nano prints the kubelet's timestamps. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** GET pods/NAME/log: the container's kept lines, then (with follow) new lines until the client goes away. */
export function servePodLog(ctx: Ctx, rp: ResourcePath): void {
  const pod = parseEntry(mustGet(ctx.state, rp.info, rp.namespace, rp.name ?? ''));
  const q = logQuery(ctx, pod);
  const log = ctx.state.podLogs?.(rp.namespace ?? '', pod.metadata.name ?? '', q.container);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/plain',
    'transfer-encoding': 'chunked',
    'cache-control': 'no-cache, private',
  });
  res.flushHeaders();
  let budget = q.limitBytes ?? Infinity;
  // Sends a line; false once limitBytes is used up (the answer ends there, as the kubelet's does).
  const send = (l: PodLogLine): boolean => {
    const text = `${q.timestamps ? `${rfc3339Nano(l.timeMs)} ` : ''}${l.text}\n`;
    const bytes = Buffer.from(text);
    if (bytes.length >= budget) {
      res.write(bytes.subarray(0, budget));
      budget = 0;
      return false;
    }
    budget -= bytes.length;
    res.write(bytes);
    return true;
  };
  const kept = (log?.lines() ?? []).filter((l) => q.sinceMs === undefined || l.timeMs >= q.sinceMs);
  const shown = q.tailLines === undefined ? kept : kept.slice(Math.max(0, kept.length - q.tailLines));
  for (const l of shown) {
    if (send(l)) continue;
    res.end();
    return;
  }
  if (!q.follow || !log) {
    res.end();
    return;
  }
  const close = (): void => {
    stop();
    untrack();
    if (!res.writableEnded) res.end();
  };
  const stop = log.follow((l) => {
    if (!send(l)) close();
  });
  // Server shutdown ends followers as it ends watches.
  const untrack = (ctx.state.faults as FaultInjector).trackWatch(close);
  res.on('close', close);
}
