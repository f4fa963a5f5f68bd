// The static checks of `npm test` (typecheck, lint, format), run side by side: each is mostly one thread, so on
// two cores together they take about as long as the longest. Each one's output is printed when it ends, whole, so
// the three do not interleave. Exits 1 if any failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const checks = ['typecheck', 'lint', 'format:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run -s NAME`, resolving with its combined output and whether it passed. */
function run(name) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (e) => resolve({ name, ok: false, output: `${e.message}\n` }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output: Buffer.concat(chunks).toString() }));
  });
}

const pending = checks.map((name) =>
  run(name).then((r) => {
    process.stdout.write(`> ${r.name}: ${r.ok ? 'ok' : 'FAILED'}\n${r.output}`);
    return r;
  }),
);
const results = await Promise.all(pending);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
