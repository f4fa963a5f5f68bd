import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const tenon = join(process.cwd(), 'bin', 'tenon.js');

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [tenon, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('the CLI on bad input', () => {
  it.each([
    [['controller', '--bogus'], /unknown option '--bogus'/],
    [['controller', '--kubeconfig', '/nonexistent/kubeconfig'], /--kubeconfig: cannot read \/nonexistent\/kubeconfig/],
  ])('tenon %j prints one line naming the problem and exits 2', (args, message) => {
    const r = cli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  describe('files named on the command line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-input-'));
    // A sparse file: its size is what counts, and the check must refuse it before reading a byte.
    const huge = join(dir, 'huge.yaml');
    writeFileSync(huge, '');
    truncateSync(huge, 50 * 1024 * 1024);
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, 'name: s\nsteps:\n  - apply: {file: missing.yaml}\n');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it.each([
      [['validate', '/nonexistent/pools.yaml'], /^tenon validate: \/nonexistent\/pools\.yaml: no such file$/],
      [['validate', huge], /huge\.yaml: 50\.0 MiB is over the 16\.0 MiB limit of a manifest file/],
      [['lint', dir], /: is a directory, expected a manifest file$/],
      [['instance-types', huge], /huge\.yaml: 50\.0 MiB is over the 16\.0 MiB limit of a manifest file/],
      [['scenario', 'validate', '/nonexistent/s.yaml'], /^error: \/nonexistent\/s\.yaml: no such file$/],
      [['scenario', 'validate', scenario], /scenario\.yaml: steps\[0\]\.apply\.file: .*missing\.yaml: no such file$/],
      [['scenario', 'run', '--repeat', '0', scenario], /^error: --repeat: must be a positive integer, got "0"$/],
    ])('tenon %j prints one line naming the file and the rule and exits 2', (args, message) => {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    });
  });

  it('names the setting when an environment variable is invalid', () => {
    const r = cli(['controller'], { LOG_LEVEL: 'loud' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'error: LOG_LEVEL: unsupported value "loud": supported values: "debug", "info", "warn", "error"',
    );
  });
});
