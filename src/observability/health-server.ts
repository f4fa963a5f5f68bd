import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

/** A running HTTP server. */
export interface RunningServer {
  port: number;
  close: () => Promise<void>;
}

/** Why the process is not ready, or undefined when it is. */
export type ReadinessCheck = () => Promise<string | undefined>;

/** Where a server listens: loopback unless told otherwise (in a pod, 0.0.0.0 so the kubelet and Prometheus reach it). */
export interface Listen {
  port: number;
  host?: string;
}

type Route = (res: http.ServerResponse) => Promise<void>;

async function serve(l: Listen, routes: Record<string, Route>): Promise<RunningServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = routes[path];
    if (route) {
      route(res).catch((e: unknown) => {
        res.statusCode = 500;
        res.end(e instanceof Error ? e.message : String(e));
      });
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(l.port, l.host ?? '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function metricsRoute(metrics: Metrics): Route {
  return async (res) => {
    const body = await metrics.registry.metrics();
    res.setHeader('content-type', metrics.registry.contentType);
    res.end(body);
  };
}

function probeRoutes(ready: ReadinessCheck): Record<string, Route> {
  return {
    '/healthz': (res) => {
      res.end('ok');
      return Promise.resolve();
    },
    '/readyz': async (res) => {
      const reason = await ready();
      res.statusCode = reason === undefined ? 200 : 503;
      res.end(reason === undefined ? 'ok' : `not ready: ${reason}`);
    },
  };
}

/** Serves `/healthz` (the process answers) and `/readyz` (the readiness check passes), as Karpenter's probe port. */
export function startProbeServer(o: Listen & { ready: ReadinessCheck }): Promise<RunningServer> {
  return serve(o, probeRoutes(o.ready));
}

/** Serves `/metrics` in Prometheus text, on a port of its own as Karpenter's METRICS_PORT. */
export function startMetricsServer(o: Listen & { metrics: Metrics }): Promise<RunningServer> {
  return serve(o, { '/metrics': metricsRoute(o.metrics) });
}

/** Options of the combined probe and metrics server. */
export interface HealthServerOptions extends Listen {
  metrics: Metrics;
  /** True once informers have synced and the controllers run. */
  ready: () => boolean;
}

/** Serves `/metrics`, `/healthz` and `/readyz` on one port (the playground's single endpoint). */
export function startHealthServer(o: HealthServerOptions): Promise<RunningServer> {
  const ready: ReadinessCheck = () => Promise.resolve(o.ready() ? undefined : 'informers not synced');
  return serve(o, { '/metrics': metricsRoute(o.metrics), ...probeRoutes(ready) });
}
