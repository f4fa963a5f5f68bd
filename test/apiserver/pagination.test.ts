/** limit/continue pagination shows one snapshot: pages after the first ignore writes made since the first. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

describe('snapshot-consistent continue', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('serves later pages as of the first page, then a fresh list sees the writes', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e'])
      await h.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: `cm-${n}` }, data: { v: '1' } },
      });
    const first = await h.core.listNamespacedConfigMap({ namespace: 'default', limit: 2 });
    expect(first.items.map((c) => c.metadata?.name)).toEqual(['cm-a', 'cm-b']);
    await h.core.patchNamespacedConfigMap({
      name: 'cm-c',
      namespace: 'default',
      body: [{ op: 'replace', path: '/data/v', value: '2' }],
    });
    await h.core.deleteNamespacedConfigMap({ name: 'cm-d', namespace: 'default' });
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm-cc' } } });
    const names: string[] = [];
    const values: string[] = [];
    let token = first.metadata?._continue;
    while (token) {
      const page = await h.core.listNamespacedConfigMap({ namespace: 'default', limit: 2, _continue: token });
      expect(page.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      names.push(...page.items.map((c) => c.metadata?.name ?? ''));
      values.push(...page.items.map((c) => c.data?.v ?? ''));
      token = page.metadata?._continue;
    }
    expect(names).toEqual(['cm-c', 'cm-d', 'cm-e']);
    expect(values).toEqual(['1', '1', '1']);
    const fresh = await h.core.listNamespacedConfigMap({ namespace: 'default' });
    expect(fresh.items.map((c) => c.metadata?.name)).toEqual(['cm-a', 'cm-b', 'cm-c', 'cm-cc', 'cm-e']);
  });
});
