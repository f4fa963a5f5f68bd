/**
 * The HTML report's "unexplained waits": a scenario run whose NodeClaim creates all fail (the API server refuses
 * them) leaves a pod Tenon would launch for but has not, with no launch failure to show for it: the report lists
 * that pod and no other (a pod too big for every instance type has a cause; running pods do not wait).
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/sim/report/html.js';
import { unexplainedWaitsSection } from '../../src/sim/report/unexplained-waits.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import { parseScenario } from '../../src/sim/scenario/validate.js';

const scenario = `name: unexplained
steps:
  - apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: early, namespace: default}
      spec: {containers: [{name: c, image: app, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
  - wait: {for: {allPodsRunning: true}, timeout: 5m}
  - fault: {apiErrors: {rate: 1, verb: create, resource: nodeclaims, code: 500}}
  - apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: stuck, namespace: default}
      spec: {containers: [{name: c, image: app, resources: {requests: {cpu: "4", memory: 4Gi}}}]}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: too-big, namespace: default}
      spec: {containers: [{name: c, image: app, resources: {requests: {cpu: "500", memory: 1Gi}}}]}
  - advance: 2m
`;

describe('unexplained waits in the scenario report', () => {
  it('lists the pod Tenon cannot give a cause for, and only that one', async () => {
    const { scenario: s, errors } = parseScenario(scenario);
    expect(errors).toEqual([]);
    if (!s) throw new Error('no scenario');
    const report = await runScenario(s);
    expect(report.error).toBeUndefined();
    expect(report.unexplainedWaits?.map((w) => w.pod)).toEqual(['default/stuck']);
    const [stuck] = report.unexplainedWaits ?? [];
    expect(stuck?.summary).toMatch(
      /^unexplained: pending for (\d+ s|\d+m) although NodePool `default` would launch \S+/,
    );
    expect(stuck?.pendingSeconds).toBeGreaterThanOrEqual(100);
    const html = renderHtml(report);
    expect(html).toContain('<h2>Unexplained waits</h2>');
    expect(html).toMatch(/<td>default\/stuck<\/td><td>\d+<\/td><td>Pending<\/td><td>unexplained: pending for/);
    expect(html).not.toContain('<td>default/too-big</td>');
  }, 180_000);

  it('says there were none when every wait has a cause, and nothing when waits were not looked for', () => {
    expect(unexplainedWaitsSection([])).toMatch(/None: every waiting pod has a cause/);
    expect(unexplainedWaitsSection(undefined)).toBe('');
    expect(
      unexplainedWaitsSection([{ pod: 'default/<x>', state: 'Pending', summary: 'a & b', pendingSeconds: 7 }]),
    ).toContain('<td>default/&lt;x&gt;</td><td>7</td><td>Pending</td><td>a &amp; b</td>');
  });
});
