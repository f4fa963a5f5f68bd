import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('names the setting when an environment variable is invalid', () => {
    const r = cli(['controller'], { LOG_LEVEL: 'loud' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'error: LOG_LEVEL: unsupported value "loud": supported values: "debug", "info", "warn", "error"',
    );
  });
});
