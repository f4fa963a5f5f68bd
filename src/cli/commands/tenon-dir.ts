/**
 * Where the long-running commands keep what they write (kubeconfig, logs): `.tenon/` under the current
 * directory, a folder git ignores (it holds its own `.gitignore`), so a credential never lands in a commit.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The folder the playground writes its kubeconfig and logs into unless told otherwise. */
export const tenonDir = '.tenon';

/** The default kubeconfig path of `tenon serve` and `tenon apiserver`. */
export const defaultKubeconfig = `${tenonDir}/kubeconfig`;

/** Creates the folder of `file` if needed; a folder it creates gets a `.gitignore` of `*`. */
export function ensureDirOf(file: string): string {
  const path = resolve(file);
  const dir = dirname(path);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(resolve(dir, '.gitignore'), '# Written by tenon: kubeconfigs and logs of local playgrounds.\n*\n');
  }
  return path;
}

/**
 * Writes a private file (mode 0600, also when it already existed with a wider mode), creating its folder as
 * ensureDirOf does; returns its absolute path.
 */
export function writePrivateFile(file: string, text: string): string {
  const path = ensureDirOf(file);
  // The mode option only applies to a new file: an existing one is narrowed before the credential goes in.
  if (existsSync(path)) chmodSync(path, 0o600);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}
