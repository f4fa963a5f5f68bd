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
    events: [
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

  it.skipIf(browserMissingLocally)(
    'the HTML report opens without network, renders its three charts in Chromium and raises no script error',
    () => {
      expect(
        chromium,
        'Debian chromium is needed for this test: apt-get install -y chromium (.ci/run installs it)',
      ).toBeDefined();
      const html = renderHtml(report());
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
      const dir = mkdtempSync(join(tmpdir(), 'tenon-report-'));
      const file = join(dir, 'report.html');
      writeFileSync(file, html);
      const dom = execFileSync(
        chromium ?? '',
        ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=2000', '--dump-dom', `file://${file}`],
        { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      expect(dom).toContain('data-rendered="3"');
      expect(dom).not.toContain('data-error');
      expect(dom.match(/<canvas/g)?.length).toBe(3);
      // Event text is escaped, not executed.
      expect(dom).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    },
    90_000,
  );
});
