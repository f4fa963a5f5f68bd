/** `npm run bench -- SUITE [--json] [flags]`: runs one benchmark suite from bench/suites. */
import { relaunchWithLeanMalloc } from '../src/sim/playground/lean-malloc.js';
import { suites } from './suites.js';

const [name, ...rest] = process.argv.slice(2);
const suite = name ? suites[name] : undefined;
if (!suite) {
  process.stderr.write(
    `usage: npm run bench -- SUITE [--json]\nsuites: ${Object.keys(suites).join(', ') || '(none yet)'}\n`,
  );
  process.exit(name ? 2 : 0);
}
// The playground suite measures the playground as `tenon play` runs it: with its malloc settings.
const relaunched = name === 'playground' ? await relaunchWithLeanMalloc() : undefined;
if (relaunched === undefined) await suite(rest);
else process.exitCode = relaunched;
