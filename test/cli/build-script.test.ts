/**
 * scripts/build.mjs is what bin/tenon.js runs when dist/ is older than src/: it must build the checkout it belongs
 * to from any working directory (`cd /tmp && node ~/tenon/bin/tenon.js serve`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));

describe('scripts/build.mjs', () => {
  it('builds its own checkout when started from another directory', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tenon-build-'));
    try {
      const r = spawnSync(process.execPath, [script, '--outdir', 'out', '--src-only'], {
        cwd: elsewhere,
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      // --outdir is the caller's path; the sources are the checkout's.
      expect(existsSync(join(elsewhere, 'out', 'src', 'cli', 'main.js'))).toBe(true);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
