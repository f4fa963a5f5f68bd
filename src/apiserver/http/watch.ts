/** Watch streams: replay from a resourceVersion (410 when too old), live events, bookmarks, timeouts. */
import { wantsTable, type Ctx } from './http-io.js';
import { filterFromQuery, matches, type Filter } from './list.js';
import { apiVersionOf, type ResourceInfo } from '../resources/resource-types.js';
import { gone } from '../status.js';
import type { FaultInjector } from '../faults.js';
import { parseEntry, type Entry, type ResourceTable, type StoredEvent } from '../storage/store.js';
import type { ServerState } from '../state.js';
import { renderTable } from '../printing/table.js';

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** What a watcher sees of a change given its filter: the event type to send, or undefined to skip. */
export function visibleType(f: Filter, ev: StoredEvent): WatchType | undefined {
  const now = matches(f, ev.entry);
  const before = ev.prev ? matches(f, ev.prev) : false;
  if (ev.type === 'ADDED') return now ? 'ADDED' : undefined;
  if (ev.type === 'DELETED') return before || now ? 'DELETED' : undefined;
  if (now) return before ? 'MODIFIED' : 'ADDED';
  return before ? 'DELETED' : undefined;
}

/** How often a bookmark is sent when the client allows them. */
export const bookmarkIntervalMs = 5_000;

const lineEnd = Buffer.from('}\n');
const linePrefix: Record<WatchType, Buffer> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
};

/**
 * The watch event line `{"type":…,"object":…}\n` of a stored entry. A live event goes to every watcher in one
 * synchronous loop: the server's last line built is reused for the next watcher that sees the same change the
 * same way, so fan-out to 100 watchers encodes it once.
 */
export function eventLine(state: ServerState, type: WatchType, e: Entry): Buffer {
  const last = state.lastEventLine;
  if (last?.entry === e && last.type === type) return last.line;
  const line = Buffer.concat([linePrefix[type], e.json, lineEnd]);
  state.lastEventLine = { entry: e, type, line };
  return line;
}

interface Stream {
  send(type: WatchType, e: Entry): void;
  bookmark(rv: number): void;
  end(): void;
  /** Wall ms the client has not taken what was written (0 while it keeps up). */
  blockedMs(): number;
}

/**
 * A watcher whose client has not read for this long when a live event comes is closed, as kube-apiserver closes
 * a watcher that cannot keep up (the client lists and watches again), instead of buffering events without bound.
 */
export const slowWatcherMs = 5_000;

function openStream(ctx: Ctx, info: ResourceInfo): Stream {
  const table = wantsTable(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': table ? 'application/json;as=Table;v=v1;g=meta.k8s.io' : 'application/json',
    'transfer-encoding': 'chunked',
    'cache-control': 'no-cache, private',
  });
  // kubectl waits for the headers before it reads; Node would hold them until the first event otherwise.
  res.flushHeaders();
  const now = (): number => ctx.state.clock.now();
  const include = ctx.query.get('includeObject') === 'Object';
  // Since when (wall clock) the response has held bytes the client did not take; undefined while it keeps up.
  let blockedSince: number | undefined;
  const write = (chunk: Buffer | string): void => {
    if (res.write(chunk) || blockedSince !== undefined) return;
    blockedSince = performance.now();
    res.once('drain', () => (blockedSince = undefined));
  };
  return {
    send(type, e) {
      if (!table) {
        write(eventLine(ctx.state, type, e));
        return;
      }
      const body = JSON.stringify(
        renderTable(info, [parseEntry(e)], { now: now(), resourceVersion: String(e.rv), includeObject: include }),
      );
      write(`{"type":"${type}","object":${body}}\n`);
    },
    blockedMs: () => (blockedSince === undefined ? 0 : performance.now() - blockedSince),
    bookmark(rv) {
      res.write(
        `{"type":"BOOKMARK","object":${JSON.stringify({ kind: info.kind, apiVersion: apiVersionOf(info), metadata: { resourceVersion: String(rv) } })}}\n`,
      );
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
}

function initialEvents(
  table: ResourceTable,
  f: Filter,
  rvText: string | null,
): Array<{ type: WatchType; entry: Entry }> | undefined {
  if (!rvText || rvText === '0') {
    const out: Array<{ type: WatchType; entry: Entry }> = [];
    for (const key of table.keys()) {
      const e = table.objects.get(key);
      if (e && matches(f, e)) out.push({ type: 'ADDED', entry: e });
    }
    return out;
  }
  const since = table.eventsSince(Number(rvText));
  if (!since) return undefined;
  const out: Array<{ type: WatchType; entry: Entry }> = [];
  for (const ev of since) {
    const type = visibleType(f, ev);
    if (type) out.push({ type, entry: ev.entry });
  }
  return out;
}

/** Serves a watch on a resource (optionally in a namespace) until timeout, client close or a dropped watch. */
export function serveWatch(ctx: Ctx, info: ResourceInfo, namespace: string | undefined): void {
  const { state, query } = ctx;
  const table = state.store.table(info);
  const filter = filterFromQuery(query, namespace, table);
  const rvText = query.get('resourceVersion');
  const initial = initialEvents(table, filter, rvText);
  const stream = openStream(ctx, info);
  if (!initial) {
    ctx.res.write(`{"type":"ERROR","object":${JSON.stringify(gone(rvText ?? '', table.compactedRv).toStatus())}}\n`);
    stream.end();
    return;
  }
  for (const ev of initial) stream.send(ev.type, ev.entry);
  const unsubscribe = table.watch((ev) => {
    const type = visibleType(filter, ev);
    if (!type) return;
    if (stream.blockedMs() > (state.slowWatcherMs ?? slowWatcherMs)) close();
    else stream.send(type, ev.entry);
  });
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const faults = state.faults as FaultInjector;
  const close = (): void => {
    unsubscribe();
    untrack();
    for (const t of timers) clearTimeout(t);
    stream.end();
  };
  const untrack = faults.trackWatch(close);
  if (query.get('allowWatchBookmarks') === 'true') {
    const t = setInterval(() => stream.bookmark(state.store.currentRv()), bookmarkIntervalMs);
    timers.push(t);
  }
  const timeout = Number(query.get('timeoutSeconds') ?? 0);
  if (timeout > 0) timers.push(setTimeout(close, timeout * 1000));
  const lifetime = faults.watchLifetime();
  if (lifetime > 0) timers.push(setTimeout(close, lifetime));
  ctx.res.on('close', close);
}
