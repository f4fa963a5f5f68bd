import { describe, expect, it } from 'vitest';
import { startHealthServer, startMetricsServer } from './health-server.js';
import { Metrics } from './metrics.js';

describe('health and metrics server', () => {
  it('serves Node.js process metrics on a metrics port of its own', async () => {
    const metrics = new Metrics();
    metrics.collectProcessMetrics();
    const srv = await startMetricsServer({ port: 0, metrics });
    try {
      const body = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
      for (const name of [
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_p99_seconds',
      ])
        expect(body).toContain(`${name} `);
      // Which Tenon is running, on Karpenter's build_info.
      expect(body).toMatch(
        /^karpenter_build_info\{version="\d+\.\d+\.\d+",goversion="v\d+[^"]*",goarch="[a-z0-9]+",commit=""\} 1$/m,
      );
      expect((await fetch(`http://127.0.0.1:${srv.port}/readyz`)).status).toBe(404);
    } finally {
      await srv.close();
    }
  });

  it("serves Karpenter-named metrics and readiness that follows the controllers' state", async () => {
    const metrics = new Metrics();
    let ready = false;
    const srv = await startHealthServer({ port: 0, metrics, ready: () => ready });
    try {
      metrics.nodeClaimsCreated.inc({ reason: 'provisioning', nodepool: 'default', min_values_relaxed: 'false' });
      const body = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
      expect(body).toContain(
        'karpenter_nodeclaims_created_total{reason="provisioning",nodepool="default",min_values_relaxed="false"} 1',
      );
      expect((await fetch(`http://127.0.0.1:${srv.port}/readyz`)).status).toBe(503);
      ready = true;
      expect((await fetch(`http://127.0.0.1:${srv.port}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${srv.port}/healthz`)).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});
