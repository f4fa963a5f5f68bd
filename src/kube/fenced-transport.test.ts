import { describe, expect, it } from 'vitest';
import { fencedTransport, NotLeaderError } from './fenced-transport.js';
import type { Transport, TransportRequest } from './transport.js';

describe('the leader fence', () => {
  it('lets reads through always and writes only while the replica leads', async () => {
    const sent: string[] = [];
    const inner: Transport = {
      request: (req: TransportRequest) => {
        sent.push(req.method);
        return Promise.resolve({ status: 200, body: '{}' });
      },
      stream: () => Promise.resolve({ status: 200, body: '' }),
    };
    let leading = true;
    const t = fencedTransport(inner, () => leading);
    await t.request({ method: 'PATCH', path: '/api/v1/nodes/a' });
    leading = false;
    await t.request({ method: 'GET', path: '/api/v1/nodes/a' });
    await expect(t.request({ method: 'DELETE', path: '/api/v1/nodes/a' })).rejects.toBeInstanceOf(NotLeaderError);
    expect(sent).toEqual(['PATCH', 'GET']);
  });
});
