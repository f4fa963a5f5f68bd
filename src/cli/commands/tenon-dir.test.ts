import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKubeconfig, writePrivateFile } from './tenon-dir.js';

describe('the kubeconfig tenon serve writes by default', () => {
  it('lands under .tenon/, private, and git ignores it in any repository', () => {
    const repo = mkdtempSync(join(tmpdir(), 'tenon-repo-'));
    execFileSync('git', ['init', '-q', repo]);
    const path = writePrivateFile(join(repo, defaultKubeconfig), 'apiVersion: v1\nkind: Config\n');
    expect(path).toBe(join(repo, '.tenon', 'kubeconfig'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(
      execFileSync('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' }),
    ).toBe('');
  });

  it('narrows a kubeconfig that already exists with a wider mode to 0600 when it rewrites it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-kc-'));
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    writePrivateFile(file, 'new\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });
});
