import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { slowWatch } from '../cluster/conformance/slow-watch.js';

describe('a watch client that stops reading', () => {
  let server: ApiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function watchWhileWriting(slowWatcherMs: number): Promise<{ events: number; closedByServer: boolean }> {
    server = await startApiServer({ slowWatcherMs });
    const ep = { name: 'embedded', url: server.url, caPem: server.caPem, token: server.token };
    // Each event is far more than a response buffers before it asks the writer to wait.
    return slowWatch(ep, 'default', { count: 8, bytes: 1_000_000, pauseMs: 0 });
  }

  it('is closed by the server instead of having every event buffered for it', async () => {
    const seen = await watchWhileWriting(0);
    expect(seen.closedByServer).toBe(true);
    expect(seen.events).toBeLessThan(8);
  });

  it('that falls behind for less than the allowed time gets every event', async () => {
    const seen = await watchWhileWriting(600_000);
    expect(seen).toEqual({ events: 8, closedByServer: false });
  });
});
