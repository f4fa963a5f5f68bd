import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { eachDocumentResult, tenonCrds, type DocumentResult } from '../../api/index.js';
import { readInputFile } from '../input-file.js';
import { UsageError } from '../usage-error.js';

const manifestExtensions = ['.yaml', '.yml', '.json'];

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    // A path that cannot be read is reported, naming it, when it is read as a file.
    return false;
  }
}

/** Every manifest file named by the arguments: files as given, directories walked for .yaml/.yml/.json. */
export function manifestFiles(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (isDirectory(p)) {
      const entries = readdirSync(p).sort();
      out.push(
        ...manifestFiles(
          entries.map((e) => join(p, e)).filter((e) => isDirectory(e) || manifestExtensions.some((x) => e.endsWith(x))),
        ),
      );
    } else {
      out.push(p);
    }
  }
  return out;
}

function label(file: string, doc: DocumentResult): string {
  const who = doc.kind || doc.name ? ` ${doc.kind || '?'}/${doc.name || '?'}` : '';
  return `${file}[${doc.index}]${who}`;
}

/** Validates the files; returns the lines to print and whether any error was found. */
export function validateFiles(paths: string[]): { lines: string[]; failed: boolean } {
  const lines: string[] = [];
  let failed = false;
  let checked = 0;
  for (const file of manifestFiles(paths)) {
    const text = readInputFile(file, 'manifest');
    for (const doc of eachDocumentResult({ text, crds: tenonCrds() })) {
      if (doc.status === 'skipped') {
        lines.push(`${label(file, doc)}: note: kind not served by Tenon, skipped`);
        continue;
      }
      checked += 1;
      for (const e of doc.errors) lines.push(`${label(file, doc)}: error: ${e.message}`);
      if (doc.errors.length > 0) failed = true;
    }
  }
  lines.push(failed ? `${checked} object(s) checked: invalid` : `${checked} object(s) checked: valid`);
  return { lines, failed };
}

/** `tenon validate FILE|DIR ...` (or `-f FILE`, as kubectl): offline validation of NodePool, NodeClaim and EC2NodeClass manifests. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('validate Karpenter v1 manifests offline (schema, defaults and CEL rules of the CRDs)')
    .argument('[files...]', 'manifest files or directories (multi-document YAML)')
    .option('-f, --filename <path...>', 'manifest files or directories, as kubectl takes them')
    .action((files: string[], opts: { filename?: string[] }) => {
      const paths = [...files, ...(opts.filename ?? [])];
      if (paths.length === 0) {
        process.stderr.write('tenon validate: name at least one manifest file or directory (tenon validate FILE...)\n');
        process.exitCode = 2;
        return;
      }
      try {
        const { lines, failed } = validateFiles(paths);
        process.stdout.write(`${lines.join('\n')}\n`);
        if (failed) process.exitCode = 1;
      } catch (e: unknown) {
        process.stderr.write(`tenon validate: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = UsageError.is(e) ? 2 : 1;
      }
    });
}
