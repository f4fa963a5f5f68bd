/** `npm run bench -- SUITE [--json] [flags]`: runs one benchmark suite from bench/suites. */
import { suites } from './suites.js';

const [name, ...rest] = process.argv.slice(2);
const suite = name ? suites[name] : undefined;
if (!suite) {
  process.stderr.write(`usage: npm run bench -- SUITE [--json]\nsuites: ${Object.keys(suites).join(', ') || '(none yet)'}\n`);
  process.exit(name ? 2 : 0);
}
await suite(rest);
