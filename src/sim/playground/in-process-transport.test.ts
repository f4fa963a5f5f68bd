import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../apiserver/index.js';
import { inProcessTransport } from './in-process-transport.js';

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer({ crds: [] });
});
afterAll(async () => {
  await server.close();
});

describe('the in-process transport', () => {
  it('leaves nothing on a long-lived signal once its streams end, and still ends a stream when it aborts', async () => {
    const transport = inProcessTransport(server);
    const informer = new AbortController();
    // An informer passes one signal to every watch it opens; each ended watch must take its listener with it.
    for (let i = 0; i < 15; i++) {
      const r = await transport.stream({
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps',
        signal: informer.signal,
        onLine: () => undefined,
      });
      expect(r.status).toBe(200);
    }
    expect(getEventListeners(informer.signal, 'abort')).toHaveLength(0);

    const lines: string[] = [];
    const watching = transport.stream({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: { watch: 'true' },
      signal: informer.signal,
      onLine: (l) => lines.push(l),
    });
    await transport.request({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: { metadata: { name: 'seen' } },
    });
    await new Promise((r) => setTimeout(r, 50));
    informer.abort();
    expect((await watching).status).toBe(0);
    expect(lines.some((l) => l.includes('"seen"'))).toBe(true);
    expect(getEventListeners(informer.signal, 'abort')).toHaveLength(0);
  });
});
