import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, failure, startHarness, statusOf, type Harness } from './helpers.js';

describe('request size limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('refuses a body over 3 MiB with 413 naming the limit, and serves the next request', async () => {
    const data = { big: 'x'.repeat(4 * 1024 * 1024) };
    const e = await failure(() =>
      h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'huge' }, data } }),
    );
    expect(statusOf(e)).toBe(413);
    expect(bodyOf(e).reason).toBe('RequestEntityTooLarge');
    expect(bodyOf(e).message).toBe('Request entity too large: limit is 3145728');
    const ok = await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'small' }, data: { a: 'b' } },
    });
    expect(ok.metadata?.name).toBe('small');
  });
});
