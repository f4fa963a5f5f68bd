import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

/** Options of the probe and metrics server. */
export interface HealthServerOptions {
  port: number;
  metrics: Metrics;
  /** True once informers have synced and the controllers run. */
  ready: () => boolean;
}

/** Serves `/metrics` (Prometheus text), `/healthz` and `/readyz` on loopback. */
export async function startHealthServer(o: HealthServerOptions): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    void handle(o, req.url ?? '/', res);
  });
  await new Promise<void>((resolve) => server.listen(o.port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function handle(o: HealthServerOptions, url: string, res: http.ServerResponse): Promise<void> {
  if (url.startsWith('/metrics')) {
    res.setHeader('content-type', o.metrics.registry.contentType);
    res.end(await o.metrics.registry.metrics());
  } else if (url.startsWith('/healthz')) {
    res.end('ok');
  } else if (url.startsWith('/readyz')) {
    const ok = o.ready();
    res.statusCode = ok ? 200 : 503;
    res.end(ok ? 'ok' : 'not ready: informers not synced');
  } else {
    res.statusCode = 404;
    res.end('not found');
  }
}
