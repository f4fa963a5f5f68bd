import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHtml } from './html.js';
import type { RunReport } from './run-report.js';
import { renderSummary } from './terminal.js';

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
// A fresh machine may lack the browser: locally the rendering test is skipped with a notice; CI (CI=true, set by
// .ci/run, which installs Chromium) requires it, so it never skips there.
const browserMissingLocally = chromium === undefined && process.env.CI !== 'true';
if (browserMissingLocally) {
  process.stderr.write(
    'html.test.ts: Chromium not found (apt-get install -y chromium): skipping the HTML report rendering test; CI requires it\n',
  );
}

function report(): RunReport {
  const samples = Array.from({ length: 30 }, (_, i) => ({
    t: i * 10,
    podsPending: Math.max(0, 20 - i),
    podsRunning: Math.min(20, i),
    nodesReady: Math.min(3, i >> 2),
    nodesNotReady: i < 4 ? 1 : 0,
    nodeClaims: 3,
    costPerHour: 0.1 * Math.min(3, i >> 2),
    fleet: { 'm5.large/spot/us-west-2a': Math.min(2, i >> 2), 'c6a.large/on-demand/us-west-2b': i >> 4 },
  }));
  const scheduled = [14, 15, 16, 17].map((t) => ({
    t,
    type: 'Normal',
    reason: 'Scheduled',
    object: `Pod/default/web-${t}`,
    message: `Successfully assigned default/web-${t} to node-a`,
    source: 'default-scheduler',
  }));
  return {
    scenario: 'scale-up',
    description: 'a <Deployment> & friends',
    seed: 1,
    passed: false,
    expectations: [
      { step: 2, description: 'all pods Running', passed: true, observed: '20/20 Running' },
      { step: 3, description: 'NodeClaims <= 2', passed: false, observed: '3 NodeClaims' },
    ],
    samples,
    steps: [
      { step: 1, t: 0, label: 'apply' },
      { step: 2, t: 200, label: 'wait: all pods Running' },
    ],
    events: [
      ...scheduled,
      {
        t: 12,
        type: 'Warning',
        reason: 'FailedScheduling',
        object: 'Pod/default/web-1',
        message: 'Failed to schedule pod, </script><script>alert(1)</script>',
        source: 'karpenter',
      },
    ],
    launched: [{ instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'spot', count: 3 }],
    fleet: [{ instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'spot', count: 2 }],
    costPerHour: 0.3,
    allRunning: { simSeconds: 200, wallSeconds: 1.5 },
    simSeconds: 290,
    wallSeconds: 2,
  };
}

describe('run report', () => {
  it('the terminal summary shows the verdict, each expectation with what was observed, launches beside the fleet left, and warnings', () => {
    const text = renderSummary(report());
    expect(text).toContain('scenario scale-up (seed 1): FAILED');
    expect(text).toMatch(/3\s+NodeClaims <= 2\s+FAIL\s+3 NodeClaims/);
    expect(text).toMatch(/launched\s+at end/);
    expect(text).toMatch(/m5\.large\s+us-west-2a\s+spot\s+3\s+2/);
    expect(text).toContain('cost per hour: $0.3000');
    expect(text).toContain('FailedScheduling: Failed to schedule pod');
  });

  it('groups the Events by reason, type and source, each group with its count and time span', () => {
    const html = renderHtml(report());
    const groups = html.match(/<tbody class="group"[^>]*>/g) ?? [];
    expect(groups).toHaveLength(2);
    expect(html).toMatch(
      /<td>Scheduled<\/td><td>Normal<\/td><td>default-scheduler<\/td><td class="n">4<\/td><td class="n">14–17<\/td><td>4 objects<\/td>/,
    );
    expect(html.match(/<tr class="item" hidden>/g)).toHaveLength(4);
    expect(html).toContain('5 Events in 2 groups');
  });

  /** The report as Chromium leaves it after its scripts ran, opened at `hash`. */
  function renderedDom(hash = ''): string {
    expect(
      chromium,
      'Debian chromium is needed for this test: apt-get install -y chromium (.ci/run installs it)',
    ).toBeDefined();
    const html = renderHtml(report());
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const dir = mkdtempSync(join(tmpdir(), 'tenon-report-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    return execFileSync(
      chromium ?? '',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--virtual-time-budget=2000',
        '--dump-dom',
        `file://${file}${hash}`,
      ],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
  }

  it.skipIf(browserMissingLocally)(
    'the HTML report opens without network and draws pods, nodes, fleet and cost with the last values in the legends',
    () => {
      const dom = renderedDom();
      expect(dom).toContain('data-rendered="4"');
      expect(dom).not.toContain('data-error');
      expect(dom.match(/<canvas/g)?.length).toBe(4);
      // Legends show the last sample (20 running pods, 2 spot m5.large) rather than "--".
      expect(dom).not.toMatch(/class="u-value"[^>]*>--</);
      expect(dom).toMatch(/running<\/div><\/th><td class="u-value">20</);
      expect(dom).toMatch(/m5\.large<\/div><\/th><td class="u-value">2</);
      // Event text is escaped, not executed.
      expect(dom).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    },
    90_000,
  );

  it.skipIf(browserMissingLocally)(
    'a link to the report can carry an Events filter: Warnings of one reason only',
    () => {
      const dom = renderedDom('#q=failedscheduling&warn=1');
      expect(dom).toContain('1 Events in 1 groups');
      expect(dom).toMatch(/<tbody class="group" data-type="Normal" data-source="default-scheduler" hidden="">/);
    },
    90_000,
  );
});
