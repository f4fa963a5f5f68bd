import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
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
});
