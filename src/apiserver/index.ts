/** The embedded Kubernetes API server: HTTPS on loopback, bearer token, built-in kinds and Tenon's CRDs. */
import crypto from 'node:crypto';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tenonCrds, type CustomResourceDefinition } from '../api/index.js';
import { maintainBudgetStatus } from './budgets/budget-status.js';
import { builtinResources } from './builtin/kinds.js';
import { watchCrds } from './resources/crds.js';
import { onDependentRemoved } from './writes/deletion.js';
import { FaultInjector, type Faults } from './faults.js';
import { kubeConfigYaml } from './tls/kubeconfig.js';
import { loadState, saveState } from './storage/persistence.js';
import { replayWriteLog, startWriteLog } from './storage/durable-state.js';
import type { WriteLog } from './storage/write-log.js';
import { ResourceRegistry, type ResourceInfo } from './resources/resource-types.js';
import { createHttpsServer, dispatch, type LocalRequest } from './http/server.js';
import type { ResponseSink } from './http/http-io.js';
import type { PodGrace, ServerState } from './state.js';
import { Store, parseEntry } from './storage/store.js';
import { generateServingCerts, type ServingCerts } from './tls/tls.js';
import {
  credentialsFileOf,
  readCredentials,
  writeCredentials,
  type SavedCredentials,
} from './tls/saved-credentials.js';
import { Timestamps, type KObject, type ServerClock } from './types.js';
import { createObject } from './writes/writes.js';
import type { PodLogs } from './subresources/pod-log.js';

export type { Faults, FaultRule } from './faults.js';
export { FaultExemptHeader } from './faults.js';
export type { PodGrace } from './state.js';
export type { LocalRequest } from './http/server.js';
export type { ResponseSink } from './http/http-io.js';
export { readStateHeader, StateFileError, type StateHeader } from './storage/persistence.js';
export type { ServerClock } from './types.js';
export type { ContainerLog, PodLogLine, PodLogs } from './subresources/pod-log.js';

/** Options of startApiServer; all optional. */
export interface ApiServerOptions {
  /** TCP port on 127.0.0.1; 0 or unset picks a free one. */
  port?: number;
  /** What /version reports (kubectl's dispatcher picks its client by it); default v1.33.1. */
  kubernetesVersion?: string;
  /** The bearer token every request but /version must carry; random when unset. */
  token?: string;
  /** CRDs installed at start; Tenon's (NodePool, NodeClaim, EC2NodeClass) by default, `[]` for none. */
  crds?: CustomResourceDefinition[];
  /** Time source for timestamps (creation, deletion, ages); the wall clock by default. */
  clock?: ServerClock;
  /** `kubelet` (default): deleting a bound pod waits for the kubelet's grace-0 delete; `immediate`: removes it. */
  podGrace?: PodGrace;
  /**
   * Whether ServiceAccount admission mounts the projected token volume (`kube-api-access-xxxxx`) in new Pods, as
   * kube-apiserver does. Off by default: its random name makes every pod's spec unique, which the simulated
   * world's per-template sharing cannot afford (ADR 0028); the ServiceAccount name is set either way.
   */
  serviceAccountTokenVolumes?: boolean;
  /** Watch events kept per resource for resuming watches; older resourceVersions get 410 Gone. Default 10,000. */
  watchHistory?: number;
  /** Random source of fault injection (0..1). */
  random?: () => number;
  /** Saved state: loaded at start when the file exists, written on close and every `snapshotIntervalMs`. */
  stateFile?: string;
  /** How often the state is saved while running (default 60 s; 0: only on close). */
  snapshotIntervalMs?: number;
  /** Called when a periodic save fails (default: a line on stderr); the server keeps running. */
  onSnapshotError?: (e: unknown) => void;
  /** Container logs served by pods/log (the playground's own pod); every other container's log is empty. */
  podLogs?: PodLogs;
  /**
   * A watch whose client has not read what was sent for this many wall ms when a live event comes is closed, as
   * kube-apiserver closes watchers that cannot keep up (default 5 s).
   */
  slowWatcherMs?: number;
}

/** A running server. */
export interface ApiServer {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  token: string;
  /** The CA that signed the serving certificate (PEM). */
  caPem: string;
  /** A kubeconfig (context `tenon`, namespace `default`) with the CA data and the token. */
  kubeConfigYaml: string;
  /** Fault injection: error rates, latency, dropped watches. */
  faults: Faults;
  /** Closes every open watch stream (clients see the stream end and re-watch). */
  closeWatches(): void;
  /** True when the objects were loaded from the state file. */
  restored: boolean;
  /**
   * Serves a request from this process without TLS or HTTP (the playground's own clients): no token is
   * checked; fault injection, watches and everything else behave as over HTTPS.
   */
  serveInProcess(req: LocalRequest, res: ResponseSink): Promise<void>;
  /** Saves the state now (a no-op without a state file, or when nothing changed since the last save). */
  snapshot(): Promise<void>;
  /** Stops the server, ends every connection and saves the state. */
  close(): Promise<void>;
}

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function newState(opts: ApiServerOptions): ServerState {
  const registry = new ResourceRegistry();
  for (const r of builtinResources()) registry.add(r);
  const queue: Array<() => void> = [];
  let scheduled = false;
  const drain = (): void => {
    scheduled = false;
    // In batches, not shift() by shift(): a scale-down defers one call per removed dependent.
    while (queue.length > 0) for (const fn of queue.splice(0)) fn();
  };
  const store = new Store(opts.watchHistory ?? 10_000);
  const state: ServerState = {
    registry,
    store,
    clock: opts.clock ?? { now: () => Date.now() },
    podGrace: opts.podGrace ?? 'kubelet',
    serviceAccountTokenVolumes: opts.serviceAccountTokenVolumes ?? false,
    faults: new FaultInjector(opts.random),
    uids: store.uids,
    dependents: new Map(),
    defer(fn) {
      queue.push(fn);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    onCommit: [],
    timestamps: new Timestamps(),
    lastEventLine: undefined,
    committedBytes: new WeakMap(),
    podLogs: opts.podLogs,
    slowWatcherMs: opts.slowWatcherMs,
  };
  watchCrds(state);
  maintainBudgetStatus(state);
  state.onCommit.push((_info, type, entry) => {
    if (type === 'DELETED' && entry.owners) state.defer(() => onDependentRemoved(state, parseEntry(entry)));
  });
  return state;
}

// Objects a restored state already holds are kept as they were saved.
function install(state: ServerState, crds: CustomResourceDefinition[]): void {
  const ns = state.registry.find('', 'v1', 'namespaces');
  const crdInfo = state.registry.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  const missing = (info: ResourceInfo, name: string): boolean => !state.store.table(info).objects.has(name);
  for (const name of systemNamespaces)
    if (ns && missing(ns, name)) createObject(state, ns, { metadata: { name } }, { fieldManager: 'kube-apiserver' });
  // CRDs go in as plain JSON, exactly as a client would send them.
  for (const crd of crds)
    if (crdInfo && missing(crdInfo, crd.metadata.name ?? ''))
      createObject(state, crdInfo, JSON.parse(JSON.stringify(crd)) as KObject, { fieldManager: 'tenon' });
}

/**
 * Saves the state to a file when asked, one save at a time, skipping saves when nothing changed; each save compacts
 * the write log (the records it holds go).
 */
function stateSaver(state: ServerState, file: string | undefined, log: WriteLog | undefined): () => Promise<void> {
  let last = file && state.store.currentRv();
  let queue = Promise.resolve();
  return () => {
    queue = queue.then(async () => {
      const rv = state.store.currentRv();
      if (!file || rv === last) return;
      await log?.rotate();
      // Captured right after the rotation: every record moved aside is in it, later ones are in the new log.
      await saveState(state, file);
      log?.compacted();
      last = rv;
    });
    return queue;
  };
}

/** Loads the snapshot and replays the write log after it; then opens the log for this run's writes. */
function restore(
  state: ServerState,
  file: string,
  onError: (e: unknown) => void,
): { restored: boolean; log: WriteLog } {
  const loaded = loadState(state, file);
  const replayed = replayWriteLog(state, file);
  return { restored: loaded || replayed, log: startWriteLog(state, file, onError) };
}

/** The server's certificates and token: those kept beside the state file if any (saved-credentials.ts), or new. */
function identity(opts: ApiServerOptions): {
  certs: ServingCerts;
  token: string;
  saved?: SavedCredentials;
  credentialsFile?: string;
} {
  const credentialsFile = opts.stateFile ? credentialsFileOf(opts.stateFile) : undefined;
  const saved = credentialsFile ? readCredentials(credentialsFile) : undefined;
  const certs = saved ?? generateServingCerts();
  const token = opts.token ?? saved?.token ?? crypto.randomBytes(24).toString('base64url');
  return { certs, token, saved, credentialsFile };
}

/** Listens on 127.0.0.1:`port` (0: any free port); resolves with the port. */
function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the server on 127.0.0.1 with a fresh CA, serving certificate and (unless given) token, or, with a state
 * file, those it had before (and its port, when free).
 */
export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const state = newState(opts);
  const onSnapshotError =
    opts.onSnapshotError ??
    ((e: unknown) =>
      process.stderr.write(`tenon apiserver: saving state failed: ${e instanceof Error ? e.message : String(e)}\n`));
  const { restored, log } = opts.stateFile
    ? restore(state, opts.stateFile, onSnapshotError)
    : { restored: false, log: undefined };
  install(state, opts.crds ?? tenonCrds());
  // As kube-apiserver's watch cache, which starts from a list at startup: a watch from an earlier
  // resourceVersion is 410 Expired, not a replay of everything since the first write.
  state.store.setRv(state.store.currentRv());
  const snapshot = stateSaver(state, opts.stateFile, log);
  const interval =
    opts.stateFile && opts.snapshotIntervalMs !== 0
      ? setInterval(() => snapshot().catch(onSnapshotError), opts.snapshotIntervalMs ?? 60_000)
      : undefined;
  interval?.unref();
  const { certs, token, saved, credentialsFile } = identity(opts);
  const kubernetesVersion = opts.kubernetesVersion ?? 'v1.33.1';
  const server = createHttpsServer(state, { token, certs, kubernetesVersion });
  // Every TCP socket, so close() can end the ones the HTTP layer does not track (mid-handshake, idle TLS).
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // The saved port when free; another one (and a rewritten kubeconfig) when something else took it meanwhile.
  const port =
    !opts.port && saved?.port
      ? await listen(server, saved.port).catch(() => listen(server, 0))
      : await listen(server, opts.port ?? 0);
  if (credentialsFile)
    writeCredentials(credentialsFile, {
      caPem: certs.caPem,
      certPem: certs.certPem,
      keyPem: certs.keyPem,
      token,
      port,
    });
  const url = `https://127.0.0.1:${port}`;
  const faults = state.faults;
  return {
    url,
    token,
    caPem: certs.caPem,
    kubeConfigYaml: kubeConfigYaml({ url, caPem: certs.caPem, token }),
    faults,
    closeWatches: () => faults.dropWatches(),
    restored,
    serveInProcess: (req, res) => dispatch(state, kubernetesVersion, req, res),
    snapshot,
    close: async () => {
      clearInterval(interval);
      await new Promise<void>((resolve) => {
        faults.dropWatches();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      await snapshot();
      await log?.close();
    },
  };
}
