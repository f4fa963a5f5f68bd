// Transpiles the TypeScript sources to dist/ (about a second), so that the playground runs as plain JavaScript.
// Run through tsx, Node 20 loads every module through a loader thread of its own: about 110 MB more RSS.
//   --outdir DIR   write there instead of dist/ (the Dockerfile's build stage)
//   --src-only     leave out the benchmarks (the image ships the CLI only)
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import process from 'node:process';

const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdir = at >= 0 ? args[at + 1] : 'dist';
if (!outdir) throw new Error('--outdir: a directory is required');

const srcOnly = args.includes('--src-only');
// The image ships no tests: they import devDependencies it does not have.
const shipped = () =>
  readdirSync('src', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `src/${f}`);

await build({
  entryPoints: srcOnly ? shipped() : ['src/**/*.ts', 'bench/**/*.ts'],
  outdir,
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
