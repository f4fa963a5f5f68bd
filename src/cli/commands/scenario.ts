import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '../../clock/index.js';
import { renderHtml } from '../../sim/report/html.js';
import { progressLine } from '../../sim/report/progress.js';
import type { RunReport } from '../../sim/report/run-report.js';
import { renderSummary } from '../../sim/report/terminal.js';
import { repeatSummary, seedLine } from '../../sim/report/repeat-summary.js';
import { attachedRunStart, clusterSkipReason, runScenario } from '../../sim/scenario/runner.js';
import { useLeanHeap } from '../../sim/playground/lean-heap.js';
import { formatScenarioError, parseScenario } from '../../sim/scenario/validate.js';
import type { Scenario } from '../../sim/scenario/format.js';
import { inputFileProblem, readInputFile } from '../input-file.js';
import { UsageError } from '../usage-error.js';

/**
 * Reads and validates a scenario file; prints its errors and returns undefined when it has any. A file that cannot
 * be read (or a manifest file a step applies) is a usage error: one line, exit 2.
 */
export function loadScenario(file: string): Scenario | undefined {
  const r = parseScenario(readInputFile(file, 'scenario'));
  for (const e of r.errors) process.stderr.write(`${formatScenarioError(file, e)}\n`);
  r.scenario?.steps.forEach((step, i) => {
    if (!('apply' in step) || typeof step.apply === 'string') return;
    const bad = inputFileProblem(resolve(dirname(file), step.apply.file), 'manifest');
    if (bad) throw new UsageError(`${file}: steps[${i}].apply.file: ${bad}`);
  });
  return r.scenario;
}

/** Runs one scenario file with live progress on a terminal; writes the HTML report into `reportDir` if given. */
export async function runFile(
  file: string,
  o: { seed?: number; reportDir?: string; quiet?: boolean; cluster?: string },
): Promise<{ report: RunReport; html?: string } | undefined> {
  const scenario = loadScenario(file);
  if (!scenario) return undefined;
  useLeanHeap();
  const live = !o.quiet && process.stderr.isTTY;
  const report = await runScenario(scenario, {
    seed: o.seed,
    cluster: o.cluster ? { kubeconfig: resolve(o.cluster), startMs: attachedRunStart(systemClock.now()) } : undefined,
    baseDir: dirname(resolve(file)),
    onProgress: live ? (p) => process.stderr.write(`\r${progressLine(p)}\x1b[K`) : undefined,
    // The cluster's components may stop answering or never act; a run that stalls says what it waits on.
    onStall: o.cluster ? (text) => process.stderr.write(`\n${text}\n`) : undefined,
  });
  if (live) process.stderr.write('\n');
  if (!o.reportDir) return { report };
  mkdirSync(o.reportDir, { recursive: true });
  const html = join(o.reportDir, `${report.scenario}-seed${report.seed}.html`);
  writeFileSync(html, renderHtml(report));
  return { report, html };
}

/** Why a scenario file cannot run against an attached cluster, if it cannot. */
function clusterSkip(file: string): string | undefined {
  const scenario = loadScenario(file);
  return scenario ? clusterSkipReason(scenario) : undefined;
}

function jsonLine(r: RunReport): string {
  const { samples: _samples, events: _events, ...rest } = r;
  return JSON.stringify(rest);
}

/** The seed of run `run`: successive seeds from --seed, or from the file's own seed when repeating. */
function seedOf(file: string, flag: string | undefined, o: { run: number; repeat: number }): number | undefined {
  if (flag !== undefined) return Number(flag) + o.run;
  return o.repeat > 1 ? (loadScenario(file)?.seed ?? 1) + o.run : undefined;
}

type RunFlags = { repeat: string; seed?: string; json?: boolean; report?: string; cluster?: string };

/** Prints one run as asked: a JSON line, a seed's line when repeating, or the full summary. */
function printRun(done: { report: RunReport; html?: string }, flags: RunFlags, repeat: number): void {
  if (flags.json) process.stdout.write(`${jsonLine(done.report)}\n`);
  else if (repeat > 1) process.stdout.write(`${seedLine(done.report, done.html)}\n`);
  else process.stdout.write(`${renderSummary(done.report)}\n${done.html ? `report: ${done.html}\n` : ''}\n`);
}

/** The table over a file's seeds, and how to see one failed seed in full. */
function printRepeatSummary(file: string, kept: readonly RunReport[]): void {
  if (kept.length < 2) return;
  const firstFailed = kept.find((r) => !r.passed);
  process.stdout.write(`\n${repeatSummary(kept)}\n`);
  if (firstFailed)
    process.stdout.write(`the full summary of one seed: tenon scenario run ${file} --seed ${firstFailed.seed}\n`);
  process.stdout.write('\n');
}

/** Runs one file `repeat` times; returns the failed runs. */
async function runRepeated(file: string, flags: RunFlags, repeat: number): Promise<number> {
  let failed = 0;
  // Repeated runs print one line per seed and a table at the end; their reports are kept without the samples.
  const kept: RunReport[] = [];
  for (let i = 0; i < repeat; i++) {
    const seed = seedOf(file, flags.seed, { run: i, repeat });
    const skipped = flags.cluster ? clusterSkip(file) : undefined;
    if (skipped) {
      process.stdout.write(
        flags.json ? `${JSON.stringify({ scenario: file, skipped })}\n` : `${basename(file)}: skipped: ${skipped}\n`,
      );
      break;
    }
    const done = await runFile(file, { seed, reportDir: flags.report, quiet: flags.json, cluster: flags.cluster });
    if (!done) return failed + 1;
    if (!done.report.passed) failed++;
    printRun(done, flags, repeat);
    if (!flags.json) kept.push({ ...done.report, samples: [], events: [] });
  }
  printRepeatSummary(file, kept);
  return failed;
}

async function run(files: string[], flags: RunFlags): Promise<void> {
  const repeat = Number(flags.repeat);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new UsageError(`--repeat: must be a positive integer, got "${flags.repeat}"`);
  let failed = 0;
  for (const file of files) failed += await runRepeated(file, flags, repeat);
  if (!flags.json) process.stdout.write(`${failed === 0 ? 'all scenarios passed' : `${failed} run(s) failed`}\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

function validate(files: string[]): void {
  let bad = 0;
  for (const file of files) {
    if (loadScenario(file)) process.stdout.write(`${basename(file)}: valid\n`);
    else bad++;
  }
  process.exitCode = bad === 0 ? 0 : 1;
}

/** `tenon scenario run|validate`. */
export function registerScenario(program: Command): void {
  const scenario = program
    .command('scenario')
    .description('run or check playground scenario files (format: scenarios/README.md)');
  scenario
    .command('run')
    .description('run scenario files on a fresh playground each; exits non-zero if any expectation fails')
    .argument('<files...>', 'scenario files')
    .option('--repeat <n>', 'run each file n times with successive seeds', '1')
    .option('--seed <s>', "seed of the first run (default: the file's)")
    .option('--json', 'one JSON object per run instead of the summary')
    .option('--report <dir>', 'write an HTML report per run into this directory')
    .option(
      '--cluster <kubeconfig>',
      "run against this existing (disposable) cluster: its kube-scheduler and kube-controller-manager replace the simulated ones; the scenario's objects stay there",
    )
    .action(run);
  scenario
    .command('validate')
    .description('check scenario files without running them; errors name the line and the field')
    .argument('<files...>', 'scenario files')
    .action(validate);
}
