/** Test helpers: a running embedded API server with a client-node KubeConfig and Tenon's KubeClient on it. */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { KubeClient, Resources, transportFromKubeConfig, type KubeObject } from '../../src/kube/index.js';
import { inProcessTransport } from '../../src/sim/playground/in-process-transport.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/apiserver/index.js';

/** A server and clients talking to it. */
export interface Harness {
  server: ApiServer;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  custom: k8s.CustomObjectsApi;
  client: KubeClient;
}

/** Starts a server and connects both client libraries. */
export async function startHarness(opts: ApiServerOptions = {}): Promise<Harness> {
  const server = await startApiServer(opts);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeConfigYaml);
  const client = new KubeClient(await transportFromKubeConfig(kc));
  return { server, kc, core: kc.makeApiClient(k8s.CoreV1Api), custom: kc.makeApiClient(k8s.CustomObjectsApi), client };
}

/** The HTTP status of a client-node ApiException (or of a KubeApiError). */
export function statusOf(e: unknown): number | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e) return (e as { code: number }).code;
  return undefined;
}

/** The parsed Status body of a client-node ApiException. */
export function bodyOf(e: unknown): {
  reason?: string;
  message?: string;
  details?: { causes?: Array<{ field?: string; message?: string }> };
} {
  const body = (e as { body?: unknown }).body;
  return typeof body === 'string'
    ? (JSON.parse(body) as ReturnType<typeof bodyOf>)
    : ((body ?? {}) as ReturnType<typeof bodyOf>);
}

/** Runs `fn` expecting a failure; returns it. */
export async function failure(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e: unknown) {
    return e;
  }
  throw new Error('expected a failure');
}

/** A minimal pod. */
export function pod(name: string, extra: { labels?: Record<string, string>; nodeName?: string } = {}): k8s.V1Pod {
  return {
    metadata: { name, labels: extra.labels },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
    },
  };
}

/** Waits until `check` passes or the time runs out. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met in time');
}

/**
 * A server for the file's tests and a client calling it in process (for tests of what a component writes, not of
 * HTTP): started before the tests, closed after them. Returns the client's getter.
 */
export function inProcessServer(): () => KubeClient {
  let server: ApiServer | undefined;
  let client: KubeClient | undefined;
  beforeAll(async () => {
    server = await startApiServer();
    client = new KubeClient(inProcessTransport(server));
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!client) throw new Error('inProcessServer: used outside a test');
    return client;
  };
}

/** The Events about the object named `name` in `default`, selected by the server. */
export async function eventsAbout<T extends KubeObject>(client: KubeClient, name: string): Promise<T[]> {
  const list = await client.list<T>(Resources.events, {
    namespace: 'default',
    fieldSelector: `involvedObject.name=${name}`,
  });
  return list.items;
}
