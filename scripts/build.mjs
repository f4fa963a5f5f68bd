// Transpiles the TypeScript sources to dist/ (about a second), so that the playground runs as plain JavaScript.
// Run through tsx, Node 20 loads every module through a loader thread of its own: about 110 MB more RSS.
//   --outdir DIR   write there instead of dist/ (the Dockerfile's build stage)
//   --src-only     leave out the benchmarks (the image ships the CLI only)
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

// The checkout's root, whatever the working directory (bin/tenon.js rebuilds from wherever it is started).
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdirArg = at >= 0 ? args[at + 1] : 'dist';
if (!outdirArg) throw new Error('--outdir: a directory is required');
const outdir = at >= 0 ? resolve(outdirArg) : resolve(root, 'dist');

const srcOnly = args.includes('--src-only');
// The image ships no tests: they import devDependencies it does not have.
const shipped = () =>
  readdirSync(resolve(root, 'src'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `src/${f}`);

await build({
  entryPoints: srcOnly ? shipped() : ['src/**/*.ts', 'bench/**/*.ts'],
  outdir,
  outbase: '.',
  absWorkingDir: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
