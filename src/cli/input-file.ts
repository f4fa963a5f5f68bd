/**
 * Files a user names on the command line (manifests, scenarios): read whole, but only after checking that the
 * path is a readable regular file under a size limit, so a wrong path or a huge file ends in one line naming the
 * file and the rule (exit 2) instead of a stack trace or a parse that takes gigabytes.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/**
 * The largest manifest or scenario file Tenon reads. Parsing YAML costs tens of times the text's size in memory,
 * and no Kubernetes manifest set a user applies comes near it (kube-apiserver takes at most 3 MiB per object).
 */
export const maxInputFileBytes = 16 * 1024 * 1024;

/** A byte count in binary units, as `16.0 MiB` or `512 bytes`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function problem(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
}

/** Why `file` cannot be read as one input of kind `what`, or undefined when it can. */
export function inputFileProblem(file: string, what: string, maxBytes = maxInputFileBytes): string | undefined {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return `${file}: is a directory, expected a ${what} file`;
    if (!st.isFile()) return `${file}: is not a regular file, expected a ${what} file`;
    size = st.size;
  } catch (e) {
    return `${file}: ${problem(e)}`;
  }
  if (size > maxBytes)
    return `${file}: ${formatBytes(size)} is over the ${formatBytes(maxBytes)} limit of a ${what} file (split it into smaller files)`;
  return undefined;
}

/** The text of `file`; a UsageError (one line naming the file and the rule) when it is missing, not a file or too large. */
export function readInputFile(file: string, what: string, maxBytes = maxInputFileBytes): string {
  const bad = inputFileProblem(file, what, maxBytes);
  if (bad) throw new UsageError(bad);
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: ${problem(e)}`);
  }
}
