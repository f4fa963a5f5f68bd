import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Command } from 'commander';
import { runFile } from './scenario.js';
import { renderSummary } from '../../sim/report/terminal.js';

/** The shipped scenarios, at the package root: three folders up from src/cli/commands, four from a build's. */
export const scenariosDir =
  ['../../../scenarios', '../../../../scenarios']
    .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))
    .find((dir) => existsSync(dir)) ?? fileURLToPath(new URL('../../../scenarios', import.meta.url));

/** `tenon play`: the default scenario (the tour) with live progress, a summary and an HTML report. */
export function registerPlay(program: Command): void {
  program
    .command('play')
    .description('run the playground with its default scenario (the tour) and write an HTML report')
    .option('--scenario <name>', 'a shipped scenario to play instead of the tour', 'tour')
    .option('--report <dir>', 'where to write the HTML report', 'tenon-report')
    .option('--seed <s>', "seed (default: the scenario's)")
    .action(async (flags: { scenario: string; report: string; seed?: string }) => {
      process.stdout.write(
        `Tenon playground: scenario "${flags.scenario}" on a simulated EKS cluster (embedded API server, simulated EC2, kubelets, CCM and kube-scheduler), with Tenon's controllers.\n\n`,
      );
      const done = await runFile(join(scenariosDir, `${flags.scenario}.yaml`), {
        reportDir: flags.report,
        seed: flags.seed === undefined ? undefined : Number(flags.seed),
      });
      if (!done) {
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${renderSummary(done.report)}\n\n`);
      process.stdout.write(`HTML report: ${done.html ?? ''}\n`);
      process.stdout.write(
        'Next: `npx tenon serve` starts a live simulated cluster; point kubectl at the kubeconfig it prints and apply your own NodePools and workloads.\n',
      );
      process.exitCode = done.report.passed ? 0 : 1;
    });
}
