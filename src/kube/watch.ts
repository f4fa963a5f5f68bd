import { KubeApiError, type StatusBody } from './errors.js';
import type { KubeClient } from './client.js';
import { collectionPath, type KubeObject, type ResourceType } from './resources.js';

/** One watch event. */
export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: T;
}

/** Options of a watch. */
export interface WatchOptions {
  namespace?: string;
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  timeoutSeconds?: number;
  signal: AbortSignal;
}

/**
 * Streams watch events until the server closes the stream or the signal aborts. An ERROR event or a non-200
 * answer rejects with a KubeApiError (410 Gone when the resourceVersion is too old), so callers can re-list.
 */
export async function watchResource<T extends KubeObject>(
  client: KubeClient,
  rt: ResourceType<T>,
  opts: WatchOptions,
  onEvent: (e: WatchEvent<T>) => void,
): Promise<void> {
  let failure: KubeApiError | undefined;
  const res = await client.transport.stream({
    method: 'GET',
    path: collectionPath(rt, opts.namespace),
    query: {
      watch: true,
      allowWatchBookmarks: true,
      resourceVersion: opts.resourceVersion,
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
      timeoutSeconds: opts.timeoutSeconds,
    },
    signal: opts.signal,
    onLine: (line) => {
      if (failure) return;
      const event = JSON.parse(line) as { type?: string; object?: unknown };
      // A refused watch (403, 404, ...) answers with a bare Status body, which is not an event either.
      if (event.type === 'ERROR' || event.object === undefined) {
        const status = (event.type === 'ERROR' ? event.object : event) as StatusBody;
        failure = new KubeApiError(status.code ?? 500, status, `watch ${rt.plural}`);
        return;
      }
      onEvent(event as WatchEvent<T>);
    },
  });
  if (failure) throw failure;
  if (res.status !== 200 && res.status !== 0) {
    const body = res.body ? (JSON.parse(res.body) as StatusBody) : {};
    throw new KubeApiError(res.status, body, `watch ${rt.plural}`);
  }
}
