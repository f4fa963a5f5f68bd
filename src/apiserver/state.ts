/** The server's shared state: resources, objects, time, options and fault injection. */
import type { WriteLog } from './storage/write-log.js';
import type { Faults } from './faults.js';
import type { ResourceRegistry, ResourceInfo } from './resources/resource-types.js';
import type { Entry, Store } from './storage/store.js';
import type { PodLogs } from './subresources/pod-log.js';
import type { KObject, ServerClock, Timestamps } from './types.js';

/** How pod deletion with a grace period proceeds. */
export type PodGrace = 'kubelet' | 'immediate';

/** Everything a handler needs. */
export interface ServerState {
  registry: ResourceRegistry;
  store: Store;
  clock: ServerClock;
  podGrace: PodGrace;
  /** ServiceAccount admission mounts the projected token volume in new Pods (ApiServerOptions). */
  serviceAccountTokenVolumes: boolean;
  faults: Faults;
  /** uid → the object's latest entry, which names its table (owner lookups for garbage collection). */
  uids: Map<string, Entry>;
  /** owner uid → dependents' uids. */
  dependents: Map<string, Set<string>>;
  /** Work to run after the current write (garbage collection, CRD establishment). */
  defer(fn: () => void): void;
  /** Called after every committed change (controllers inside the server). */
  onCommit: Array<(info: ResourceInfo, type: 'ADDED' | 'MODIFIED' | 'DELETED', entry: Entry) => void>;
  /** Formats the timestamps of writes. */
  timestamps: Timestamps;
  /** The last watch event line built, reused for the next watcher that sees the same change (see watch.ts). */
  lastEventLine: { entry: Entry; type: 'ADDED' | 'MODIFIED' | 'DELETED'; line: Buffer } | undefined;
  /**
   * Objects just committed, mapped to the bytes stored for them: a write's response sends those bytes instead of
   * serialising the object a second time. Writers do not change an object after committing it.
   */
  committedBytes: WeakMap<KObject, Buffer>;
  /** The container logs this process keeps (pods/log); others read as empty. */
  podLogs?: PodLogs;
  /** The write log of a server with saved state: answers to writes wait until it is durable. */
  writeLog?: WriteLog;
  /** Wall ms a watch client may fall behind before its watch is closed (ApiServerOptions.slowWatcherMs). */
  slowWatcherMs?: number;
}
